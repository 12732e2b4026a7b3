//! `search`: keywords, `--queries`, `select:`, strategies, `--stats`.

use super::*;

// ---------------------------------------------------------------------------------------------
// search

/// `toolreg search ARGS --json -- QUERY`.
fn search(args: &[&str], query: &str) -> Value {
    json_of(
        toolreg()
            .arg("search")
            .args(args)
            .args(["--json", "--", query]),
    )
}

fn matches(output: &Value) -> Vec<String> {
    output["matches"]
        .as_array()
        .expect("matches")
        .iter()
        .map(|name| name.as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn search_finds_notebook_edit_and_the_notebook_demo_tools() {
    let output = search(&[], "notebook jupyter");
    let found = matches(&output);
    assert!(found.contains(&"NotebookEdit".to_owned()), "{found:?}");
    assert!(
        found.iter().any(|name| name.starts_with("mcp__notebook__")),
        "{found:?}"
    );
    assert!(found.len() <= 5, "max_results defaults to 5");
    let deferred = list(&[])
        .iter()
        .filter(|tool| tool["deferred"] == true)
        .count();
    assert_eq!(output["total_deferred_tools"], deferred);
    assert_eq!(output["query"], "notebook jupyter");
}

const QUERIES: [&str; 5] = [
    "notebook jupyter",
    "select:Read,NotebookEdit",
    "slack message",
    "mcp__chat",
    "+calendar event",
];

fn queries_file(dir: &Path) -> PathBuf {
    let file = dir.join("queries.txt");
    std::fs::write(&file, QUERIES.join("\n") + "\n").unwrap();
    file
}

#[test]
fn search_queries_file_prints_one_object_per_line_equal_to_each_query_alone() {
    for strategy in ["keyword", "bm25f"] {
        let dir = tempfile::tempdir().unwrap();
        let file = queries_file(dir.path());
        let text = stdout_of(
            toolreg()
                .args(["search", "--json", "--strategy", strategy, "--queries"])
                .arg(&file),
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), QUERIES.len(), "{text}");
        for (line, query) in lines.iter().zip(QUERIES) {
            let object: Value = serde_json::from_str(line).unwrap();
            assert_eq!(
                keys(&object),
                ["matches", "query", "total_deferred_tools"].into(),
                "{line}"
            );
            assert_eq!(object["query"], query);
            let alone = search(&["--strategy", strategy], query);
            assert_eq!(object, alone, "{strategy}: {query}");
        }
    }
}

#[test]
fn search_select_returns_canonical_names_in_request_order_uncapped() {
    for strategy in ["keyword", "bm25f"] {
        let args = ["--strategy", strategy, "--max-results", "1"];
        let json_args = |query: &str| {
            json_of(
                toolreg()
                    .arg("search")
                    .args(args)
                    .args(["--json", "--", query]),
            )
        };
        assert_eq!(
            matches(&json_args(
                "select:WebFetch, Read,WebFetch,NoSuchTool,,Task"
            )),
            ["WebFetch", "Read", "Agent"],
            "{strategy}: de-duplicated, aliases resolved, unknown dropped, not capped"
        );
        assert_eq!(
            matches(&json_args("SELECT:mcp__chat__set_status")),
            ["mcp__chat__set_status"],
            "{strategy}: `select:` is case-insensitive"
        );
        assert_ne!(
            matches(&json_args(" select:Read")),
            ["Read"],
            "{strategy}: a leading space defeats `select:`"
        );
    }
}

#[test]
fn search_bm25f_strategy_finds_keyword_matches() {
    let output = search(&["--strategy", "bm25f"], "notebook jupyter");
    let found = matches(&output);
    assert!(!found.is_empty() && found.len() <= 5, "{found:?}");
    assert!(found.contains(&"NotebookEdit".to_owned()), "{found:?}");
    let chat = matches(&search(&["--strategy", "bm25f"], "mcp__chat"));
    assert_eq!(
        chat,
        demo_tool_names("chat")[..5],
        "the `mcp__` prefix path, in pool order"
    );
}

#[test]
fn search_stats_prints_one_json_line_to_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let file = queries_file(dir.path());
    let output = toolreg()
        .args(["search", "--json", "--stats", "--queries"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    let stats: Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(
        keys(&stats),
        [
            "tools",
            "deferred",
            "index_build_us",
            "queries",
            "search_us_total",
            "search_us_per_query",
        ]
        .into()
    );
    let tools = list(&[]);
    assert_eq!(stats["tools"], tools.len());
    assert_eq!(
        stats["deferred"],
        tools.iter().filter(|tool| tool["deferred"] == true).count()
    );
    assert_eq!(stats["queries"], QUERIES.len());
    for key in ["index_build_us", "search_us_total", "search_us_per_query"] {
        assert!(stats[key].as_f64().is_some_and(|us| us >= 0.0), "{key}");
    }
    assert_eq!(
        String::from_utf8(output.stdout).unwrap().lines().count(),
        QUERIES.len(),
        "stdout keeps only the results"
    );
}

#[test]
fn eval_prints_intervals_the_baseline_and_which_sets_are_held_out() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("weather_set");
    std::fs::create_dir(&set).unwrap();
    let tools = [
        r#"{"id": "w", "name": "getWeather", "description": "Current weather for a city", "extra": {}}"#,
        r#"{"id": "m", "name": "sendEmail", "description": "Send an email message", "extra": {}}"#,
        r#"{"id": "c", "name": "convertCurrency", "description": "Convert an amount between currencies", "extra": {}}"#,
    ];
    std::fs::write(set.join("tools.jsonl"), tools.join("\n")).unwrap();
    let queries = [
        r#"{"qid": "1", "query": "what is the weather in Paris", "relevant": ["w"]}"#,
        r#"{"qid": "2", "query": "send an email to my boss", "relevant": ["m"]}"#,
        r#"{"qid": "3", "query": "convert euros to dollars", "relevant": ["c"]}"#,
    ];
    std::fs::write(set.join("queries.jsonl"), queries.join("\n")).unwrap();
    let text = stdout_of(toolreg().args(["eval", set.to_str().unwrap()]));
    assert!(text.contains("recall@5 (95% interval)"), "{text}");
    for strategy in ["BM25 baseline", "keyword", "BM25F"] {
        assert!(
            text.contains(&format!(
                "| weather_set | held out | requests | {strategy} |"
            )),
            "{strategy}: {text}"
        );
    }
    // Every query is answered: recall 1 with an interval of no width, and no gain on BM25.
    assert!(
        text.contains("| weather_set | held out | requests | BM25F | 1.000 [1.000, 1.000] |"),
        "{text}"
    );
    assert!(
        text.contains("| weather_set | held out | requests | BM25F | +0.000 [+0.000, +0.000] |"),
        "{text}"
    );
}

/// `--model`: all-MiniLM-L6-v2 as `tests/model/install.sh` installs it and the static model
/// `tests/model/install-static.sh` installs (CI does), or these tests say so and return,
/// unless `TOOLREG_REQUIRE_MODEL` is set.
#[cfg(feature = "semantic")]
mod model {
    use super::*;

    fn model_dir() -> Option<String> {
        installed("all-MiniLM-L6-v2", "tests/model/install.sh")
    }

    /// The model `name` in target/models, which `script` installs.
    fn installed(name: &str, script: &str) -> Option<String> {
        let dir = workspace().join("target/models").join(name);
        if dir.join("model.safetensors").exists() {
            return Some(dir.to_string_lossy().into_owned());
        }
        assert!(
            std::env::var_os("TOOLREG_REQUIRE_MODEL").is_none(),
            "TOOLREG_REQUIRE_MODEL is set but {} holds no model",
            dir.display()
        );
        eprintln!("skipped: no model in {} (run {script})", dir.display());
        None
    }

    #[test]
    fn search_with_a_static_model_ranks_by_meaning_too() {
        // A Model2Vec directory (no transformer in its config.json) loads as a static model.
        let Some(dir) = installed("tokenlearn-static-model", "tests/model/install-static.sh")
        else {
            return;
        };
        let query = "stop the kernel";
        let lexical = matches(&search(&["--strategy", "bm25f"], query));
        assert_eq!(
            lexical.first().map(String::as_str),
            Some("mcp__notebook__get_kernel_state")
        );
        let fused = matches(&search(&["--strategy", "bm25f", "--model", &dir], query));
        assert_eq!(
            fused.first().map(String::as_str),
            Some("mcp__notebook__interrupt_kernel"),
            "to stop is to interrupt: {fused:?}"
        );
    }

    #[test]
    fn search_with_a_model_ranks_by_meaning_too() {
        let Some(dir) = model_dir() else { return };
        // Words alone pick the tool whose name and description say `kernel` most.
        let query = "stop the kernel";
        let lexical = matches(&search(&["--strategy", "bm25f"], query));
        assert_eq!(
            lexical.first().map(String::as_str),
            Some("mcp__notebook__get_kernel_state")
        );
        let fused = matches(&search(&["--strategy", "bm25f", "--model", &dir], query));
        assert_eq!(
            fused.first().map(String::as_str),
            Some("mcp__notebook__interrupt_kernel"),
            "to stop is to interrupt: {fused:?}"
        );
    }

    #[test]
    fn search_with_a_model_needs_the_bm25f_strategy() {
        let Some(dir) = model_dir() else { return };
        let error = failure_of(toolreg().args(["search", "--model", &dir, "kernel"]));
        assert!(
            error.contains("--model fuses meaning into the BM25F strategy: add --strategy bm25f"),
            "{error}"
        );
    }

    #[test]
    fn a_model_directory_without_a_model_is_named_in_the_error() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("config.json"), "{}").unwrap();
        let path = dir.path().to_string_lossy().into_owned();
        let error = failure_of(toolreg().args([
            "search",
            "--strategy",
            "bm25f",
            "--model",
            &path,
            "kernel",
        ]));
        assert!(
            error.contains("--model")
                && error.contains("config.json")
                && error.contains("missing field `hidden_size`"),
            "{error}"
        );
    }

    #[test]
    fn eval_with_a_model_adds_its_rows_and_gains() {
        let Some(dir) = model_dir() else { return };
        let set = tempfile::tempdir().unwrap();
        let tools = [
            r#"{"id": "i", "name": "interruptKernel", "description": "Interrupt the running kernel", "extra": {}}"#,
            r#"{"id": "s", "name": "getKernelState", "description": "The kernel's state: idle or busy", "extra": {}}"#,
        ];
        std::fs::write(set.path().join("tools.jsonl"), tools.join("\n")).unwrap();
        let query = r#"{"qid": "1", "query": "halt the computation", "relevant": ["i"]}"#;
        std::fs::write(set.path().join("queries.jsonl"), query).unwrap();
        let name = set
            .path()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let text = stdout_of(toolreg().args(["eval", "--model", &dir]).arg(set.path()));
        for row in [
            format!(
                "| {name} | held out | requests | BM25F + all-MiniLM-L6-v2 | 1.000 [1.000, 1.000] |"
            ),
            format!(
                "| {name} | held out | requests | BM25F + all-MiniLM-L6-v2 | +1.000 [+1.000, +1.000] |"
            ),
        ] {
            assert!(text.contains(&row), "{row}\n{text}");
        }
    }
}
