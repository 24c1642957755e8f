//! One module per subcommand.

pub mod build;
pub mod compare;
pub mod history;
pub mod init;
pub mod inspect;
pub mod new;
pub mod pages;
pub mod serve;
pub mod site;
