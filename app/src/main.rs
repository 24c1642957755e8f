//! Entry point of the browser app: hydrate the page the build rendered.

fn main() {
    #[cfg(feature = "hydrate")]
    benchdeck_app::start();
}
