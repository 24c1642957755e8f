//! What the app remembers while a page is open, as reactive state its components share: the
//! page shown ([`route`]), the address's query holding the reader's view ([`query`]), the
//! colour scheme ([`theme`]), the one effect function ([`effect`]), the result files a reader dropped ([`local`]) and whether the app
//! has taken over the page the build rendered ([`live`]). The browser
//! glue they stand on is in [`crate::browser`].

pub mod effect;
pub mod live;
pub mod local;
pub mod query;
pub mod route;
pub mod theme;
