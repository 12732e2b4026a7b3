//! The commands: each runs one subcommand and prints its output.

mod call;
mod list;
#[cfg(feature = "mcp")]
mod mcp;
mod search;

use std::io::Write;
use std::process::ExitCode;

use toolreg::mcp::{Layout, printable};

use crate::cli::{Args, Command, McpCommand};
use crate::setup::{Setup, setup};

pub(crate) use self::call::dispatcher;
use self::call::{call, turn};
use self::list::list;
#[cfg(feature = "mcp")]
use self::mcp::mcp_servers;
use self::search::search;

pub type Result<T> = std::result::Result<T, String>;

/// Runs a command. Its error may quote a peer (an MCP server's message, a name from a
/// `tools/list` file): it is returned with its control characters escaped.
pub fn run(args: Args) -> Result<ExitCode> {
    run_command(args).map_err(|error| printable(&error, Layout::Lines).into_owned())
}

fn run_command(args: Args) -> Result<ExitCode> {
    let pool_hiding = |hidden: &[String]| -> Result<Setup> {
        let setup = setup(&args.pool, hidden)?;
        // Warnings quote the servers and the tools/list files.
        for warning in &setup.warnings {
            eprintln!("warning: {}", printable(warning, Layout::Lines));
        }
        Ok(setup)
    };
    let pool = || pool_hiding(&[]);
    match &args.command {
        Command::List { json } => list(&pool()?, *json),
        Command::Search(search_args) => search(&pool()?, search_args),
        Command::Render(render_args) => crate::render::render(&pool()?, render_args),
        Command::Call {
            name,
            input,
            format,
            id,
            strict,
        } => call(&pool()?, name, input, (*format, id, *strict)),
        Command::Turn(turn_args) => turn(&pool()?, turn_args),
        Command::Eval(eval_args) => crate::eval::eval(eval_args),
        Command::Mcp(McpCommand::Servers { json }) => mcp_servers(&args.pool, *json),
        Command::Mcp(McpCommand::Login {
            server,
            no_browser,
            wait,
        }) => crate::login::login(&args.pool, server, !*no_browser, *wait),
        Command::Mcp(McpCommand::Logout { server }) => crate::login::logout(&args.pool, server),
        Command::Mcp(McpCommand::Serve(serve)) => match &serve.http {
            None => {
                let setup = pool()?;
                let dispatcher = dispatcher(&setup, &[])?;
                crate::serve::stdio(&setup, dispatcher, serve.mode, &serve.builtins)
            }
            Some(address) => {
                // Before anything opens a file: the connections need descriptors.
                let open_files = crate::serve::raise_open_file_limit();
                // Nothing a client can run may see a token: the tokens file's variables are
                // hidden from Bash and from upstream servers.
                let setup = pool_hiding(&crate::serve::token_variables(serve.tokens.as_deref()))?;
                let tokens: Vec<&std::path::Path> = serve.tokens.as_deref().into_iter().collect();
                let dispatcher = dispatcher(&setup, &tokens)?;
                crate::serve::http(&setup, dispatcher, serve, address, open_files)
            }
        },
    }
}

/// Prints the command's output. A reader that went away (`toolreg list | head`) is not an
/// error: the output was wanted only up to there.
pub fn out(text: &str) -> Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    match writeln!(stdout, "{text}").and_then(|()| stdout.flush()) {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => Err(error.to_string()),
        _ => Ok(ExitCode::SUCCESS),
    }
}

/// Writes the command's output as `write` makes it, then a newline, through a buffer: output
/// as large as a catalog's listing is never held whole. A reader that went away is not an
/// error, as for [`out`].
pub(super) fn out_with(
    write: impl FnOnce(&mut std::io::BufWriter<std::io::StdoutLock<'static>>) -> std::io::Result<()>,
) -> Result<ExitCode> {
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    let written = write(&mut stdout)
        .and_then(|()| writeln!(stdout))
        .and_then(|()| stdout.flush());
    match written {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => Err(error.to_string()),
        _ => Ok(ExitCode::SUCCESS),
    }
}

#[cfg(not(feature = "mcp"))]
fn mcp_servers(_: &crate::cli::PoolArgs, _: bool) -> Result<ExitCode> {
    Err("toolreg mcp: this toolreg was built without the `mcp` feature".into())
}
