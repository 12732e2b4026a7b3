//! AskUserQuestion: multiple-choice questions to the user, asked by the host.

use serde::{Deserialize, Serialize};
use toolreg::{InputSchema, Tool, ToolContext, ToolError, ToolOutput, tool};

/// Asks the user one to four multiple-choice questions while you work, and returns their answers.
///
/// Use it to gather preferences or requirements, to clarify ambiguous instructions, to choose between implementation approaches, or to offer the user directions to take. Do not use it for what you can find out yourself.
///
/// - Each question has a short `header` (at most 12 characters, shown as a tag), 2-4 `options` each with a `label` and a `description` of what it means, and `multiSelect` when several options may be chosen together.
/// - The user can always answer with their own text instead of an option, so do not add an "Other" option.
/// - If you recommend an option, put it first and add "(Recommended)" to its label.
/// - In plan mode, use it to settle requirements before the plan, not to ask whether the plan is ready: ExitPlanMode does that.
#[tool(
    strict,
    name = "AskUserQuestion",
    defer,
    read_only,
    concurrency_safe,
    search_hint = "prompt for multiple choice clarification or preferences"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct AskUserQuestionTool {
    /// The questions to ask (1-4).
    pub questions: Vec<Question>,
}

/// One question.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, InputSchema)]
pub struct Question {
    /// The complete question, clear and specific, ending with a question mark.
    pub question: String,
    /// A very short label shown as a tag (at most 12 characters), e.g. "Auth method".
    pub header: String,
    /// The choices (2-4); an "Other" answer is always available and must not be listed.
    pub options: Vec<QuestionOption>,
    /// Allow the user to choose more than one option.
    #[serde(rename = "multiSelect", default)]
    pub multi_select: bool,
}

/// One choice of a question.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, InputSchema)]
pub struct QuestionOption {
    /// The text the user picks (1-5 words).
    pub label: String,
    /// What choosing it means, or its trade-offs.
    pub description: String,
}

impl Tool for AskUserQuestionTool {
    type Output = ToolOutput;

    fn validate_input(&self, _: &ToolContext<'_>) -> Result<(), ToolError> {
        if !(1..=4).contains(&self.questions.len()) {
            return Err(ToolError::new(format!(
                "ask 1 to 4 questions, not {}",
                self.questions.len()
            )));
        }
        for (i, question) in self.questions.iter().enumerate() {
            if !(2..=4).contains(&question.options.len()) {
                return Err(ToolError::new(format!(
                    "questions[{i}] has {} options; give 2 to 4",
                    question.options.len()
                )));
            }
        }
        Ok(())
    }

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        self.validate_input(ctx)?;
        ctx.delegate(self).await
    }
}
