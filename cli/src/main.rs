//! `toolreg`: drive the registry from the command line.
//!
//! Every command assembles the same pool: the built-ins of this build, the MCP tools of
//! `--mcp SERVER=FILE` (or, without any, the demo catalog compiled into the binary), the deny
//! rules, the agent context. Then it lists, searches, renders or calls.

mod cli;
mod commands;
mod demo;
mod eval;
mod login;
mod render;
mod safeguard;
mod serve;
mod setup;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Args::parse();
    match commands::run(args) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}
