//! [`Fresh`]: a view that, when the reactive code around it renders it again, is built anew in
//! place of the old one instead of patched into it.
//!
//! leptos patches a view rendered again over its old state (`Render::rebuild`), and for that it
//! compiles a second walk over the view's whole type, attribute by attribute, next to the one
//! that builds it and the one that hydrates it. The app's large views (a report's body, a chart)
//! are never rendered again with the same branch: a page's data arrives once, and a page the
//! reader goes back to is built anew anyway. Their patching code was dead weight in the wasm
//! (about a tenth of it). Wrapped in `Fresh`, such a view renders exactly as
//! before, and if it ever is rendered again it is built and swapped in, as `Either` does when
//! its branch changes.

use leptos::tachys::html::attribute::any_attribute::AnyAttribute;
use leptos::tachys::html::attribute::Attribute;
use leptos::tachys::hydration::Cursor;
use leptos::tachys::ssr::StreamBuilder;
use leptos::tachys::view::add_attr::AddAnyAttr;
use leptos::tachys::view::{Mountable, Position, PositionState, Render, RenderHtml};

/// A view built anew, never patched, when it is rendered again (see the module's docs).
pub struct Fresh<V>(pub V);

impl<V: Render> Render for Fresh<V> {
    type State = V::State;

    fn build(self) -> Self::State {
        self.0.build()
    }

    fn rebuild(self, state: &mut Self::State) {
        let mut new_state = self.0.build();
        state.insert_before_this(&mut new_state);
        state.unmount();
        *state = new_state;
    }
}

impl<V: RenderHtml> AddAnyAttr for Fresh<V> {
    type Output<SomeNewAttr: Attribute> = Fresh<V::Output<SomeNewAttr>>;

    fn add_any_attr<NewAttr: Attribute>(self, attr: NewAttr) -> Self::Output<NewAttr>
    where
        Self::Output<NewAttr>: RenderHtml,
    {
        Fresh(self.0.add_any_attr(attr))
    }
}

impl<V: RenderHtml> RenderHtml for Fresh<V> {
    type AsyncOutput = Fresh<V::AsyncOutput>;
    type Owned = Fresh<V::Owned>;

    const MIN_LENGTH: usize = V::MIN_LENGTH;
    const EXISTS: bool = V::EXISTS;

    fn dry_resolve(&mut self) {
        self.0.dry_resolve();
    }

    async fn resolve(self) -> Self::AsyncOutput {
        Fresh(self.0.resolve().await)
    }

    fn html_len(&self) -> usize {
        self.0.html_len()
    }

    fn to_html_with_buf(
        self,
        buf: &mut String,
        position: &mut Position,
        escape: bool,
        mark_branches: bool,
        extra_attrs: Vec<AnyAttribute>,
    ) {
        self.0
            .to_html_with_buf(buf, position, escape, mark_branches, extra_attrs);
    }

    fn to_html_async_with_buf<const OUT_OF_ORDER: bool>(
        self,
        buf: &mut StreamBuilder,
        position: &mut Position,
        escape: bool,
        mark_branches: bool,
        extra_attrs: Vec<AnyAttribute>,
    ) where
        Self: Sized,
    {
        self.0.to_html_async_with_buf::<OUT_OF_ORDER>(
            buf,
            position,
            escape,
            mark_branches,
            extra_attrs,
        );
    }

    fn hydrate<const FROM_SERVER: bool>(
        self,
        cursor: &Cursor,
        position: &PositionState,
    ) -> Self::State {
        self.0.hydrate::<FROM_SERVER>(cursor, position)
    }

    fn into_owned(self) -> Self::Owned {
        Fresh(self.0.into_owned())
    }
}
