//! How the BM25F strategy's signals become one ranking: BM25F blended with the seed score
//! ([`blend`]), and with an embedder, that lexical score fused with the cosine of sentence
//! embeddings ([`semantic`](self::semantic), the rule told in the crate's `semantic` module).

pub mod blend;
pub mod semantic;
