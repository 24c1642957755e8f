//! Entry point of the browser app: take over the page the build rendered.

fn main() {
    #[cfg(feature = "csr")]
    benchdeck_app::start();
}
