//! One module per page; `bench` is the hidden `/_bench/scatter/` benchmark page, compiled only
//! with the feature `bench` (the build `cargo xtask bench` makes).

#[cfg(feature = "bench")]
mod bench;
mod embed;
mod home;
mod local;
mod not_found;
pub(crate) mod report;

#[cfg(feature = "bench")]
pub use bench::ScatterBench;
pub use embed::Embed;
pub use home::Home;
pub use local::LocalReport;
pub use not_found::NotFound;
pub use report::Report;
