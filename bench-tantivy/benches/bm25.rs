//! tantivy's BM25 over the same tools: one document per tool with three text fields, queried
//! as an OR of term queries.
//!
//! - Fields: `name` (the tool's own name and its server's name, as the BM25F strategy's name
//!   field reads them), `description`, and `params` (the input schema's property names and
//!   descriptions). Not stored: a hit is read back by its document id, which is the tool's
//!   position because the index is one segment written in pool order.
//! - Analysis: tantivy's `default` tokenizer (alphanumeric runs, tokens over 40 bytes dropped,
//!   lower-cased), no stop words, no stemming.
//! - Query: the query's distinct tokens, each a `TermQuery` (with frequencies, so BM25 scores)
//!   in every field, all `Should` clauses of one `BooleanQuery`. This is what `QueryParser` with
//!   its default OR makes of a query of plain words, without its syntax (a request's `:`, `-`
//!   or quotes would otherwise change the query or fail to parse), and each term once, as the
//!   BM25F strategy weighs it. Each field is scored by BM25 on its own and the fields' scores
//!   add up (tantivy has no BM25F), without field boosts.
//! - Ranking: `TopDocs::with_limit(k).order_by_score()`, which prunes with block-WAND.

use std::sync::Mutex;

use serde_json::Value;
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, Occur, Query, TermQuery};
use tantivy::schema::{Field, IndexRecordOption, Schema, TEXT};
use tantivy::tokenizer::TextAnalyzer;
use tantivy::{Index, IndexWriter, Searcher, TantivyDocument, Term};
use toolreg_search::{Document, ToolDoc};

/// tantivy's index of a pool, ready to search.
pub struct Bm25 {
    searcher: Searcher,
    fields: [Field; 3],
    analyzer: Mutex<TextAnalyzer>,
    names: Vec<String>,
}

/// The property names and descriptions of an input schema, space-separated.
fn params(schema: &str) -> String {
    let Ok(Value::Object(schema)) = serde_json::from_str::<Value>(schema) else {
        return String::new();
    };
    let Some(Value::Object(properties)) = schema.get("properties") else {
        return String::new();
    };
    let mut text = String::new();
    for (name, property) in properties {
        text.push_str(name);
        text.push(' ');
        if let Some(Value::String(description)) = property.get("description") {
            text.push_str(description);
            text.push(' ');
        }
    }
    text
}

impl Bm25 {
    /// Indexes `pool` in one segment.
    pub fn build(pool: &[std::sync::Arc<ToolDoc>]) -> Bm25 {
        let mut schema = Schema::builder();
        let fields = [
            schema.add_text_field("name", TEXT),
            schema.add_text_field("description", TEXT),
            schema.add_text_field("params", TEXT),
        ];
        let index = Index::create_in_ram(schema.build());
        // One thread with room for the whole pool: a single segment, documents in pool order.
        let mut writer: IndexWriter = index
            .writer_with_num_threads(1, 1 << 30)
            .expect("an index writer");
        for tool in pool {
            let mut doc = TantivyDocument::default();
            let name = format!("{} {}", tool.own_name(), tool.server().unwrap_or(""));
            doc.add_text(fields[0], name);
            doc.add_text(fields[1], tool.description());
            doc.add_text(fields[2], params(tool.input_schema()));
            writer.add_document(doc).expect("a document");
        }
        writer.commit().expect("a commit");
        let reader = index.reader().expect("a reader");
        let searcher = reader.searcher();
        assert_eq!(searcher.segment_readers().len(), 1, "one segment");
        let analyzer = index.tokenizer_for_field(fields[0]).expect("a tokenizer");
        Bm25 {
            searcher,
            fields,
            analyzer: Mutex::new(analyzer),
            names: pool.iter().map(|tool| tool.name().to_owned()).collect(),
        }
    }

    /// The names of the best `k` tools for `query`.
    pub fn search(&self, query: &str, k: usize) -> Vec<String> {
        let mut tokens = Vec::new();
        {
            let mut analyzer = self.analyzer.lock().expect("the analyzer");
            let mut stream = analyzer.token_stream(query);
            while stream.advance() {
                tokens.push(stream.token().text.clone());
            }
        }
        tokens.sort_unstable();
        tokens.dedup();
        let clauses: Vec<(Occur, Box<dyn Query>)> = (self.fields.iter())
            .flat_map(|&field| {
                tokens.iter().map(move |token| {
                    let term = Term::from_field_text(field, token);
                    let query = TermQuery::new(term, IndexRecordOption::WithFreqs);
                    (Occur::Should, Box::new(query) as Box<dyn Query>)
                })
            })
            .collect();
        let query = BooleanQuery::new(clauses);
        let top = (self.searcher)
            .search(&query, &TopDocs::with_limit(k).order_by_score())
            .expect("a search");
        (top.into_iter())
            .map(|(_, address)| self.names[address.doc_id as usize].clone())
            .collect()
    }
}
