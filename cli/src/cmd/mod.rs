//! One module per subcommand.

pub mod inspect;
pub mod pages;
pub mod site;
