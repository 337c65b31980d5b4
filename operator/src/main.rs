//! `eden`: the operator's command-line tool. See `eden --help` and `eden <command> --help`; each command is
//! a module of `cmd`.

mod cmd;

use clap::Parser;
use eden_operator::output::Out;
use std::process::ExitCode;

#[tokio::main]
async fn main() -> ExitCode {
    let cli = cmd::Cli::parse();
    let out = Out { json: cli.json };
    match cmd::run(cli, out).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if out.json {
                println!("{}", serde_json::json!({ "error": e.to_string() }));
            }
            eprintln!("eden: {e}");
            ExitCode::FAILURE
        }
    }
}
