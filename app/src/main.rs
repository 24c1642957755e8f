//! Entry point of the browser app: install the panic hook, mount the app.

fn main() {
    benchdeck_app::start();
}
