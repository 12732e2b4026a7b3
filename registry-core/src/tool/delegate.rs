//! Tools whose work the embedding application does.

use std::any::type_name;
use std::future::Future;
use std::sync::Arc;

use crate::tool::BoxFuture;
use crate::{ErrorKind, State, Tool, ToolContext, ToolError, ToolSpec};

/// The application's side of a tool of type `T`: what a call of `T` does.
///
/// Write `call` as an `async fn`; its future must be `Send`, like a tool's. Register the
/// delegate with [`State::with_delegate`].
///
/// Some tools cannot work from the machine alone: launching a sub-agent needs the conversation
/// loop, asking the user needs the user, searching the web needs a search service. Such a tool
/// declares its input and hands the call to a [`Delegate`] the application implements for that
/// tool type, found in the call's [`State`]: its `call` is `ctx.delegate(self).await`. Without
/// a delegate the call fails with an error that names the tool and what to implement, so a tool
/// never pretends to work.
///
/// ```
/// # mod demo {
/// use serde::Deserialize;
/// use toolreg::{Tool, ToolContext, ToolError, tool};
///
/// /// Searches the web.
/// #[tool(read_only)]
/// #[derive(Deserialize)]
/// pub struct WebSearchTool {
///     /// What to search for.
///     pub query: String,
/// }
///
/// impl Tool for WebSearchTool {
///     type Output = String;
///     async fn call(self, ctx: &ToolContext<'_>) -> Result<String, ToolError> {
///         ctx.delegate(self).await
///     }
/// }
/// # }
/// # use demo::WebSearchTool;
/// use toolreg::{Delegate, State, Tool, ToolContext, ToolError};
/// use toolreg::env::Switches;
///
/// struct MySearch;
/// impl Delegate<WebSearchTool> for MySearch {
///     async fn call(&self, input: WebSearchTool, _: &ToolContext<'_>) -> Result<String, ToolError> {
///         Ok(format!("no results for {}", input.query))
///     }
/// }
///
/// let switches = Switches::default();
/// let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
/// let search = |state: &State| {
///     let ctx = ToolContext::new(std::path::Path::new("."), &switches).with_state(state);
///     runtime.block_on(WebSearchTool { query: "rust".into() }.call(&ctx))
/// };
/// let with = State::new().with_delegate::<WebSearchTool>(MySearch);
/// assert_eq!(search(&with).unwrap(), "no results for rust");
/// assert!(search(&State::new()).unwrap_err().to_string().contains("Delegate<WebSearchTool>"));
/// ```
pub trait Delegate<T: Tool>: Send + Sync + 'static {
    /// Runs the call.
    fn call(
        &self,
        input: T,
        ctx: &ToolContext<'_>,
    ) -> impl Future<Output = Result<T::Output, ToolError>> + Send;
}

/// [`Delegate`] with a boxed future, so that one can sit behind a pointer in [`State`].
trait DynDelegate<T: Tool>: Send + Sync {
    fn call_boxed<'a>(
        &'a self,
        input: T,
        ctx: &'a ToolContext<'a>,
    ) -> BoxFuture<'a, Result<T::Output, ToolError>>;
}

impl<T: Tool, D: Delegate<T>> DynDelegate<T> for D {
    fn call_boxed<'a>(
        &'a self,
        input: T,
        ctx: &'a ToolContext<'a>,
    ) -> BoxFuture<'a, Result<T::Output, ToolError>> {
        Box::pin(self.call(input, ctx))
    }
}

/// The registered delegate of `T`, as [`State`] holds it (found by this type).
struct Registered<T: Tool>(Arc<dyn DynDelegate<T>>);

impl State {
    /// Registers `delegate` as what calls of `T` do, replacing an earlier one.
    pub fn insert_delegate<T: Tool>(&mut self, delegate: impl Delegate<T>) -> &mut Self {
        self.insert(Arc::new(Registered::<T>(Arc::new(delegate))))
    }

    /// Builder form of [`insert_delegate`](Self::insert_delegate).
    pub fn with_delegate<T: Tool>(mut self, delegate: impl Delegate<T>) -> Self {
        self.insert_delegate::<T>(delegate);
        self
    }

    /// Whether a delegate for `T` is registered.
    pub fn has_delegate<T: Tool>(&self) -> bool {
        self.get::<Registered<T>>().is_some()
    }
}

impl ToolContext<'_> {
    /// Hands the call to the [`Delegate`] of `T` in the call's state; without one, an error
    /// naming the tool and what the application must register.
    pub fn delegate<'s, T: Tool + ToolSpec>(
        &'s self,
        input: T,
    ) -> BoxFuture<'s, Result<T::Output, ToolError>> {
        match self.state::<Registered<T>>() {
            Some(Registered(delegate)) => delegate.call_boxed(input, self),
            None => Box::pin(std::future::ready(Err(not_delegated::<T>()))),
        }
    }
}

/// The error of a call no delegate takes.
fn not_delegated<T: ToolSpec>() -> ToolError {
    let name = T::DESCRIPTOR.name;
    let ty = type_name::<T>();
    let short = ty.rsplit("::").next().unwrap_or(ty);
    ToolError::new(format!(
        "the application does not provide {name}: it must implement `Delegate<{short}>` and \
         register it in the call's state (`State::with_delegate::<{ty}>`)"
    ))
    .with_kind(ErrorKind::NotProvided)
}
