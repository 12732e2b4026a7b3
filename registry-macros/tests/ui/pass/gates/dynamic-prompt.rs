// `prompt` gives a dynamic text, `fn() -> String` or `fn(&Switches) -> String`.
use serde::Deserialize;
use toolreg::env::Switches;
use toolreg::{Tool, ToolContext, ToolError, ToolSpec, tool};

fn agent_prompt(switches: &Switches) -> String {
    if switches.is_on("fork_subagent") {
        "Forks a sub-agent.".to_owned()
    } else {
        "Starts a sub-agent.".to_owned()
    }
}

fn fixed_prompt() -> String {
    "Asks the user.".to_owned()
}

#[tool(prompt = agent_prompt)]
#[derive(Deserialize)]
pub struct AgentTool {
    /// The task.
    pub prompt: String,
}

#[tool(prompt = fixed_prompt)]
#[derive(Deserialize)]
pub struct AskTool {}

impl Tool for AgentTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(self.prompt)
    }
}

impl Tool for AskTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(String::new())
    }
}

fn main() {
    let agent = <AgentTool as ToolSpec>::DESCRIPTOR;
    let fork = Switches::new().with("fork_subagent");
    assert_eq!(
        agent.description_for(&Switches::default()),
        "Starts a sub-agent."
    );
    assert_eq!(agent.description_for(&fork), "Forks a sub-agent.");
    let ask = <AskTool as ToolSpec>::DESCRIPTOR;
    assert_eq!(ask.description_for(&Switches::default()), "Asks the user.");
}
