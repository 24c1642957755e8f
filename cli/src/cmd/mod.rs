//! One module per subcommand.

pub mod inspect;
pub mod new;
pub mod pages;
pub mod site;
