//! The forward pass of a BERT encoder (post-layer-norm, GELU, absolute positions), mean-pooled
//! and normalized: what sentence-transformers computes for all-MiniLM-L6-v2 and models of its
//! shape.
//!
//! Texts go through in batches with their rows stacked, not padded, so no attention mask is
//! needed. The matrix products go to `matrixmultiply` (it picks AVX or FMA kernels at run
//! time); everything else is a loop over rows.

/// `y = x Wᵀ + b` for `x` of `rows × input`, `W` of `output × input` (PyTorch's layout).
#[derive(Debug)]
pub(crate) struct Linear {
    /// `Wᵀ` (`input × output`, row-major), which `matrixmultiply` reads row by row.
    pub(crate) transposed: Vec<f32>,
    pub(crate) bias: Vec<f32>,
    pub(crate) input: usize,
    pub(crate) output: usize,
}

/// Per-feature scale and shift after normalizing each row.
#[derive(Debug)]
pub(crate) struct LayerNorm {
    pub(crate) weight: Vec<f32>,
    pub(crate) bias: Vec<f32>,
    pub(crate) eps: f32,
}

/// One encoder layer.
#[derive(Debug)]
pub(crate) struct Layer {
    pub(crate) query: Linear,
    pub(crate) key: Linear,
    pub(crate) value: Linear,
    pub(crate) attention_out: Linear,
    pub(crate) attention_norm: LayerNorm,
    pub(crate) intermediate: Linear,
    pub(crate) output: Linear,
    pub(crate) output_norm: LayerNorm,
}

/// The whole encoder.
#[derive(Debug)]
pub(crate) struct Bert {
    pub(crate) hidden: usize,
    pub(crate) heads: usize,
    /// `vocabulary × hidden`.
    pub(crate) words: Vec<f32>,
    /// `max positions × hidden`.
    pub(crate) positions: Vec<f32>,
    /// The first token type's embedding (`hidden`): every token of a single text has it.
    pub(crate) token_type: Vec<f32>,
    pub(crate) embedding_norm: LayerNorm,
    pub(crate) layers: Vec<Layer>,
}

/// `c = alpha · a · b + beta · c` for row-major `a` (`m × k`, row stride `a_row`) and `b`
/// given by its strides, `c` row-major `m × n` with row stride `c_row`.
///
/// The bounds of every matrix are checked against its slice before the call; a product that
/// would read or write outside them is not computed (the callers' shapes come from a model
/// whose tensors were checked when it was loaded, so this does not happen).
#[allow(clippy::too_many_arguments)]
fn gemm(
    (m, k, n): (usize, usize, usize),
    alpha: f32,
    (a, a_row): (&[f32], usize),
    (b, b_row, b_col): (&[f32], usize, usize),
    beta: f32,
    (c, c_row): (&mut [f32], usize),
) {
    let last = |rows: usize, row: usize, cols: usize, col: usize| {
        (rows > 0 && cols > 0).then(|| (rows - 1) * row + (cols - 1) * col)
    };
    let fits = |slice_len: usize, last: Option<usize>| last.is_none_or(|at| at < slice_len);
    if m == 0
        || n == 0
        || !fits(a.len(), last(m, a_row, k, 1))
        || !fits(b.len(), last(k, b_row, n, b_col))
        || !fits(c.len(), last(m, c_row, n, 1))
    {
        debug_assert!(m == 0 || n == 0, "gemm outside its matrices");
        return;
    }
    // SAFETY: every element read from `a` and `b` and written to `c` is at an offset checked
    // above to lie inside its slice; `c` does not alias `a` or `b` (a `&mut` borrow).
    unsafe {
        matrixmultiply::sgemm(
            m,
            k,
            n,
            alpha,
            a.as_ptr(),
            a_row as isize,
            1,
            b.as_ptr(),
            b_row as isize,
            b_col as isize,
            beta,
            c.as_mut_ptr(),
            c_row as isize,
            1,
        );
    }
}

impl Linear {
    /// `x Wᵀ + b` into `y` (resized).
    fn forward(&self, x: &[f32], rows: usize, y: &mut Vec<f32>) {
        y.clear();
        for _ in 0..rows {
            y.extend_from_slice(&self.bias);
        }
        let (input, output) = (self.input, self.output);
        gemm(
            (rows, input, output),
            1.0,
            (x, input),
            (&self.transposed, output, 1),
            1.0,
            (y, output),
        );
    }
}

impl LayerNorm {
    /// Normalizes each row of `x` (rows of `weight.len()`) in place.
    fn apply(&self, x: &mut [f32]) {
        let width = self.weight.len().max(1);
        for row in x.chunks_exact_mut(width) {
            let mean = row.iter().sum::<f32>() / width as f32;
            let variance = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / width as f32;
            let scale = 1.0 / (variance + self.eps).sqrt();
            for ((v, w), b) in row.iter_mut().zip(&self.weight).zip(&self.bias) {
                *v = (*v - mean) * scale * w + b;
            }
        }
    }
}

/// GELU, the exact (erf) form BERT uses.
fn gelu(x: f32) -> f32 {
    0.5 * x * (1.0 + libm::erff(x * std::f32::consts::FRAC_1_SQRT_2))
}

/// Scratch buffers of one forward pass.
#[derive(Default)]
struct Scratch {
    q: Vec<f32>,
    k: Vec<f32>,
    v: Vec<f32>,
    scores: Vec<f32>,
    context: Vec<f32>,
    projected: Vec<f32>,
    wide: Vec<f32>,
}

impl Bert {
    /// The mean-pooled, L2-normalized embedding of each token sequence (ids within the
    /// vocabulary; a sequence is cut at the number of positions).
    ///
    /// The sequences go through the encoder together, their rows stacked: every product with
    /// the weights is then one product over all of them, which reads the weights once for the
    /// batch; attention alone is taken sequence by sequence.
    pub(crate) fn embed(&self, sequences: &[&[u32]]) -> Vec<Vec<f32>> {
        let hidden = self.hidden.max(1);
        let positions = self.positions.len() / hidden;
        let mut x = Vec::new();
        // Each sequence's first row and its row count.
        let mut spans = Vec::with_capacity(sequences.len());
        for ids in sequences {
            let ids = ids.get(..positions).unwrap_or(ids);
            spans.push((x.len() / hidden, ids.len()));
            for (&id, position) in ids.iter().zip(self.positions.chunks_exact(hidden)) {
                let word = (self.words.chunks_exact(hidden)).nth(id as usize);
                let row = x.len();
                x.extend(position.iter().zip(&self.token_type).map(|(p, t)| p + t));
                if let Some(row) = x.get_mut(row..) {
                    for (v, w) in row.iter_mut().zip(word.unwrap_or_default()) {
                        *v += w;
                    }
                }
            }
        }
        self.embedding_norm.apply(&mut x);
        let mut scratch = Scratch::default();
        for layer in &self.layers {
            self.layer(layer, &mut x, &spans, &mut scratch);
        }
        spans
            .iter()
            .map(|&(first, rows)| {
                let mut pooled = vec![0.0f32; hidden];
                let span = x.get(first * hidden..(first + rows) * hidden);
                for row in span.unwrap_or_default().chunks_exact(hidden) {
                    add_into(&mut pooled, row);
                }
                let norm = pooled.iter().map(|v| v * v).sum::<f32>().sqrt();
                if norm > 0.0 {
                    pooled.iter_mut().for_each(|p| *p /= norm);
                }
                pooled
            })
            .collect()
    }

    /// One encoder layer over `x` (the rows of every sequence of `spans`), in place.
    fn layer(&self, layer: &Layer, x: &mut [f32], spans: &[(usize, usize)], s: &mut Scratch) {
        let hidden = self.hidden.max(1);
        let rows = x.len() / hidden;
        layer.query.forward(x, rows, &mut s.q);
        layer.key.forward(x, rows, &mut s.k);
        layer.value.forward(x, rows, &mut s.v);
        s.context.clear();
        s.context.resize(rows * hidden, 0.0);
        for &(first, rows) in spans {
            let span = first * hidden..(first + rows) * hidden;
            let (Some(q), Some(k), Some(v), Some(context)) = (
                s.q.get(span.clone()),
                s.k.get(span.clone()),
                s.v.get(span.clone()),
                s.context.get_mut(span),
            ) else {
                continue;
            };
            self.attention((q, k, v), rows, &mut s.scores, context);
        }
        layer
            .attention_out
            .forward(&s.context, rows, &mut s.projected);
        add_into(x, &s.projected);
        layer.attention_norm.apply(x);
        layer.intermediate.forward(x, rows, &mut s.wide);
        for v in &mut s.wide {
            *v = gelu(*v);
        }
        layer.output.forward(&s.wide, rows, &mut s.projected);
        add_into(x, &s.projected);
        layer.output_norm.apply(x);
    }

    /// Multi-head self-attention of one sequence (`rows` rows of `q`, `k`, `v`) into `context`:
    /// per head, `softmax(Q Kᵀ / √d) V`.
    fn attention(
        &self,
        (q, k, v): (&[f32], &[f32], &[f32]),
        rows: usize,
        scores: &mut Vec<f32>,
        context: &mut [f32],
    ) {
        let hidden = self.hidden;
        let heads = self.heads.max(1);
        let head = hidden / heads;
        scores.clear();
        scores.resize(rows * rows, 0.0);
        let scale = 1.0 / (head as f32).sqrt();
        for at in (0..heads).map(|h| h * head) {
            let (Some(q), Some(k), Some(v)) = (q.get(at..), k.get(at..), v.get(at..)) else {
                break;
            };
            let context = context.get_mut(at..).unwrap_or_default();
            gemm(
                (rows, head, rows),
                scale,
                (q, hidden),
                (k, 1, hidden),
                0.0,
                (scores, rows),
            );
            for row in scores.chunks_exact_mut(rows.max(1)) {
                let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                let mut sum = 0.0;
                for v in row.iter_mut() {
                    *v = (*v - max).exp();
                    sum += *v;
                }
                for v in row.iter_mut() {
                    *v /= sum;
                }
            }
            gemm(
                (rows, rows, head),
                1.0,
                (scores, rows),
                (v, hidden, 1),
                0.0,
                (context, hidden),
            );
        }
    }
}

/// `x += y`, element by element.
fn add_into(x: &mut [f32], y: &[f32]) {
    for (a, b) in x.iter_mut().zip(y) {
        *a += b;
    }
}

#[cfg(test)]
mod tests {
    use super::gemm;

    #[test]
    fn gemm_multiplies_by_a_transposed_matrix_given_by_strides() {
        // a: 2×3, w: 2×3 (output × input), a wᵀ: 2×2.
        let a = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let w = [1.0, 0.0, 1.0, 0.0, 1.0, 0.0];
        let mut c = [10.0, 20.0, 30.0, 40.0];
        gemm((2, 3, 2), 1.0, (&a, 3), (&w, 1, 3), 1.0, (&mut c, 2));
        assert_eq!(c, [14.0, 22.0, 40.0, 45.0]);
    }
}
