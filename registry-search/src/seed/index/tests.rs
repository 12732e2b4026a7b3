use super::hits::{GAP_PASS, GapHits};
use super::scorer::BY_TOOL;
use super::*;
use crate::ToolDoc;
use crate::text::is_word_byte;
use crate::util::dense::Buffers;

#[test]
fn tools_with_many_parts_keep_the_rest_apart() {
    let names = [
        "mcp__a_b_c__d_e_f_a",
        "x",
        "mcp__s__one_two_three_four",
        "Ab",
    ];
    let tools: Vec<Arc<ToolDoc>> = names
        .into_iter()
        .map(|name| Arc::new(ToolDoc::new(name, "")))
        .collect();
    let index = SeedIndex::build(&tools);
    let parts = |i: u32| -> Vec<&str> {
        let (inline, more) = index.tool_parts(i);
        inline
            .iter()
            .chain(more)
            .map(|&part| index.part(part))
            .collect()
    };
    assert_eq!(parts(0), ["a", "b", "c", "d", "e", "f"]);
    assert_eq!(parts(1), ["x"]);
    assert_eq!(parts(2), ["s", "one", "two", "three", "four"]);
    assert_eq!(parts(3), ["ab"]);
}

#[test]
fn containing_parts_finds_every_part_with_the_term() {
    let tools: Vec<Arc<ToolDoc>> = [
        "mcp__s__weather",
        "mcp__s__getweatherforecast",
        "Weatherly",
        "Other",
    ]
    .into_iter()
    .map(|name| Arc::new(ToolDoc::new(name, "")))
    .collect();
    let index = SeedIndex::build(&tools);
    for term in [
        "weather",
        "eather",
        "w",
        "r",
        "getweatherfore",
        "weatherforecast",
        "zz",
        "s",
    ] {
        let mut found = Vec::new();
        index.containing_parts(term, |part| found.push(index.part(part).to_owned()));
        found.sort();
        found.dedup();
        let mut expected: Vec<String> = (0..index.vocab_len() as u32)
            .map(|part| index.part(part).to_owned())
            .filter(|part| part.contains(term))
            .collect();
        expected.sort();
        assert_eq!(found, expected, "{term:?}");
    }
}

/// Tools of every kind of name and text the rules read: MCP and plain names, hints,
/// punctuation, non-ASCII letters whose lower case differs.
fn varied_tools(n: usize) -> Vec<Arc<ToolDoc>> {
    const NAMES: [&str; 6] = [
        "mcp__files__read_file",
        "WebSearchTool",
        "mcp__Météo__Prévision_Jour",
        "send_message",
        "mcp__c__c_plus_plus",
        "ÉtéFort",
    ];
    const TEXTS: [&str; 8] = [
        "Reads a file: a+b, then c++ -> d.",
        "search the web; weather & news",
        "Prévision MÉTÉO—jour+nuit (été)",
        "send a message ... or two",
        "c++ and c -> b, a.b",
        "",
        "x->y x - y x--y é+é É+É",
        "++lead trail++ a++b",
    ];
    (0..n)
        .map(|i| {
            let name = format!("{}{i}", NAMES[i % NAMES.len()]);
            let mut tool = ToolDoc::new(name, TEXTS[i % TEXTS.len()]);
            if i % 3 == 0 {
                tool.search_hint = Some(TEXTS[(i / 3) % TEXTS.len()].to_uppercase());
            }
            Arc::new(tool)
        })
        .collect()
}

/// Terms of every kind: words, parts, non-word terms with and without word characters.
const TERMS: [&str; 34] = [
    "file",
    "read",
    "web",
    "search",
    "c",
    "c++",
    "->",
    "+",
    "++",
    "-",
    "--",
    ".",
    "...",
    "a.b",
    "a+b",
    "é+é",
    "+é",
    "—",
    "(",
    ")",
    ";",
    ":",
    "&",
    "prévision",
    "météo",
    "été",
    "jour+nuit",
    "x->y",
    "message",
    "s",
    "1",
    "plus",
    "é",
    ",",
];

#[test]
fn gap_pass_finds_what_the_scan_for_each_term_finds() {
    let index = SeedIndex::build(&varied_tools(40));
    let GapHits(Some(mut gaps)) = index.gap_hits(TERMS.into_iter()) else {
        panic!("enough terms for one pass");
    };
    let gap_terms: Vec<&str> = TERMS
        .into_iter()
        .filter(|term| !term.bytes().any(is_word_byte))
        .collect();
    assert!(gap_terms.len() >= GAP_PASS, "enough terms for one pass");
    assert_eq!(gaps.len(), gap_terms.len());
    for term in gap_terms {
        let from_pass = gaps.remove(term);
        assert_eq!(from_pass, Some(index.word_hits(term)), "{term:?}");
    }
    // Too few terms for a pass: each is scanned.
    assert!(index.gap_hits(["+", "->"].into_iter()).0.is_none());
}

#[test]
fn scores_term_by_term_equal_scores_tool_by_tool() {
    let tools = varied_tools(60);
    let index = SeedIndex::build(&tools);
    // Every term three times, and more terms than the tool-by-tool limit allows.
    let mut scoring: Vec<String> = TERMS.iter().map(|term| term.to_string()).collect();
    scoring.extend((0..BY_TOOL / 30).map(|i| format!("{}{}", TERMS[i % TERMS.len()], i / 9)));
    scoring.extend(TERMS.iter().chain(&TERMS).map(|term| term.to_string()));
    let every: Vec<u32> = (0..tools.len() as u32).collect();
    let odd: Vec<u32> = every.iter().copied().filter(|i| i % 2 == 1).collect();
    for list in [&every, &odd] {
        assert!(list.len() * scoring.len() > BY_TOOL);
        let by_term = index.scores(&scoring, list);
        let by_tool: Vec<u32> = (list.iter())
            .map(|&i| index.text(i as usize).score(&scoring))
            .collect();
        assert_eq!(by_term, by_tool);
    }
}

#[test]
fn repeated_terms_are_scored_once_with_their_count() {
    let tools = varied_tools(500);
    let index = SeedIndex::build(&tools);
    let every: Vec<u32> = (0..tools.len() as u32).collect();
    for term in ["file", "c++", "é+é"] {
        let once = index.scores(&[term.to_owned()], &every);
        let repeated = index.scores(&vec![term.to_owned(); 100_000], &every);
        let expected: Vec<u32> = once.iter().map(|score| score * 100_000).collect();
        assert_eq!(repeated, expected, "{term:?}");
    }
}

#[test]
fn many_required_terms_are_each_looked_up_once() {
    let tools = varied_tools(3_000);
    let index = SeedIndex::build(&tools);
    let one = index.required(&["e".to_owned()]);
    assert!(one.as_ref().is_some_and(|tools| tools.len() > 1_000));
    assert_eq!(index.required(&vec!["e".to_owned(); 50_000]), one);
    // Once no tool is left, the other terms are not looked up.
    let mut none = vec!["zzz".to_owned()];
    none.extend((0..50_000).map(|i| format!("e{i}")));
    assert_eq!(index.required(&none), Some(Vec::new()));
    assert_eq!(index.required(&[]), None);
}

#[test]
fn a_name_of_many_parts_is_indexed_in_linear_time() {
    let parts: Vec<String> = (0..60_000).map(|i| format!("p{i}")).collect();
    // The first half again: each part counts once, where it first appears.
    let name = format!("mcp__s__{}_{}", parts.join("_"), parts[..30_000].join("_"));
    let index = SeedIndex::build(&[Arc::new(ToolDoc::new(name, ""))]);
    let (inline, more) = index.tool_parts(0);
    let found: Vec<&str> = inline.iter().chain(more).map(|&p| index.part(p)).collect();
    assert_eq!(found.len(), 60_001);
    assert_eq!(found[..3], ["s", "p0", "p1"]);
    assert_eq!(found.last(), Some(&"p59999"));
    assert_eq!(
        index.exact_part("p59999").map(|p| index.part_tools(p)),
        Some(&[0][..])
    );
}

#[test]
fn positions_past_the_index_read_as_nothing() {
    let index = SeedIndex::build(&varied_tools(3));
    assert_eq!(index.tool_parts(3), (&[][..], &[][..]));
    assert!(!index.is_mcp(3) && index.tool(3).is_none());
    assert_eq!(index.text(3).score(&["file".to_owned()]), 0);
    assert_eq!(index.part(u32::MAX), "");
    assert_eq!(index.part_flags(u32::MAX), 0);
    assert_eq!(index.part_tools(u32::MAX), [] as [u32; 0]);
    assert_eq!(index.suffix((u32::MAX, 0)), [] as [u8; 0]);
}

#[test]
fn seed_scores_added_term_by_term_equal_each_tools_score() {
    let tools = varied_tools(60);
    let index = SeedIndex::build(&tools);
    let every: Vec<u32> = (0..tools.len() as u32).collect();
    let word_terms: Vec<&str> = (TERMS.iter().copied())
        .filter(|term| crate::text::is_word_term(term))
        .collect();
    let buffers = Buffers::default();
    for (i, term) in word_terms.iter().enumerate() {
        // One term, said twice, and with the next one.
        let next = word_terms.get(i + 1).unwrap_or(term);
        for scoring in [vec![*term], vec![*term, *term], vec![*term, *next]] {
            let scoring: Vec<String> = scoring.into_iter().map(str::to_owned).collect();
            let (mut scores, mut parts) = (buffers.tools(tools.len()), buffers.tools(tools.len()));
            let scorer = index.scorer(&scoring);
            assert!(scorer.entries(usize::MAX).is_some());
            scorer.add_to(&mut scores, &mut parts, Some);
            let added: Vec<u32> = every.iter().map(|&tool| scores.get(tool) as u32).collect();
            assert_eq!(added, index.scores(&scoring, &every), "{scoring:?}");
            assert!(parts.touched().is_empty(), "the scratch is left zeros");
            // A tool with a score is on some list: past a limit below them, no count.
            if added.iter().any(|&score| score > 0) {
                assert_eq!(scorer.entries(0), None, "{scoring:?}");
            }
            // Positions elsewhere: each tool's score lands where `at` puts it, or nowhere.
            let (mut moved, n) = (buffers.tools(2 * tools.len()), tools.len() as u32);
            let mut wide = buffers.tools(2 * tools.len());
            scorer.add_to(&mut moved, &mut wide, |tool| {
                (tool % 2 == 0).then_some(n + tool)
            });
            for &tool in &every {
                let expected = if tool % 2 == 0 {
                    added[tool as usize]
                } else {
                    0
                };
                assert_eq!(moved.get(n + tool) as u32, expected, "{scoring:?}");
                assert_eq!(moved.get(tool), 0.0);
            }
        }
    }
    // A term with non-word characters has no count, and adds nothing.
    let scoring = vec!["file.txt".to_owned()];
    let (mut scores, mut parts) = (buffers.tools(tools.len()), buffers.tools(tools.len()));
    assert_eq!(index.scorer(&scoring).entries(usize::MAX), None);
    index.scorer(&scoring).add_to(&mut scores, &mut parts, Some);
    assert!(scores.touched().is_empty());
}
