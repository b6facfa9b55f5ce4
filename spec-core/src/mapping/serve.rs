//! Serving a request from a record at run time: each leaf of the request is looked up by source
//! in the record (at compile time), converted, and handed over; a leaf asked for twice, by one
//! request or by several consumers, is produced once.

use crate::format::FormatAs;
use crate::format::exec::ragged_rows_into;
use crate::mapping::matching::{HasSource, ReadField, Reads};
use crate::types::batch::{ArcBatch, Batch};
use crate::types::for_tuples;
use crate::types::ragged::SourceView;
use crate::types::source::Source;
use crate::types::space::{Null, Space};
use core::any::{Any, TypeId};
use std::collections::HashMap;

/// A request leaf's value built from a shared, converted batch: an [`ArcBatch`] takes it as it is
/// (no copy), a [`Batch`] takes its own copy.
#[diagnostic::on_unimplemented(
    message = "a field of type `{Self}` cannot be served whole",
    label = "`serve` builds `Batch` and `ArcBatch` fields",
    note = "a `Ragged` request field is filled by providers and dataset selections; `serve` gives a ragged source as a `Batch` padded to its longest sample"
)]
pub trait FromShared<S: Space> {
    /// The value.
    fn from_shared(batch: &ArcBatch<S>) -> Self;
}

impl<S: Space> FromShared<S> for ArcBatch<S> {
    fn from_shared(batch: &ArcBatch<S>) -> Self {
        batch.clone()
    }
}

impl<S: Space> FromShared<S> for Batch<S> {
    fn from_shared(batch: &ArcBatch<S>) -> Self {
        batch.to_owned()
    }
}

/// The leaves produced while serving one record: each (source, space) once, shared.
#[derive(Default)]
pub struct ServeCache {
    leaves: HashMap<TypeId, Box<dyn Any + Send + Sync>>,
    produced: usize,
    /// When set, only these samples of each source are served, gathered and converted in one
    /// pass (the batch of a training step); otherwise whole sources.
    rows: Option<Vec<usize>>,
}

impl ServeCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets the leaves (for the next record), keeping the memory of the map.
    pub fn clear(&mut self) {
        self.leaves.clear();
        self.produced = 0;
    }

    /// Forgets the leaves, and serves from now on only the samples `rows` of each source (in
    /// this order; every row below the sources' length: the caller checks), each (source, space)
    /// gathered and converted in one pass: the batches of a training step
    /// ([`Trainer`](crate::data::training::Trainer)).
    pub fn serve_rows(&mut self, rows: &[usize]) {
        self.clear();
        let kept = self.rows.get_or_insert_with(Vec::new);
        kept.clear();
        kept.extend_from_slice(rows);
    }

    /// How many leaves were converted since the last [`ServeCache::clear`]: the unique
    /// (source, space) pairs asked for.
    pub fn produced(&self) -> usize {
        self.produced
    }

    /// Whether the leaf of the source `Src` in the space `QS` was converted since the last
    /// [`ServeCache::clear`].
    pub fn holds<Src: Source, QS: Space>(&self) -> bool {
        self.leaves.contains_key(&TypeId::of::<(Src, QS)>())
    }

    /// The leaf of the source `Src` in the space `QS`, converted from `from` the first time it
    /// is asked for (the derive's code calls it; keyed by `(Src, QS)`).
    #[doc(hidden)]
    pub fn get_or_convert<Src: Source, RS: FormatAs<QS>, QS: Space>(
        &mut self,
        from: SourceView<'_, RS>,
    ) -> &ArcBatch<QS> {
        let key = TypeId::of::<(Src, QS)>();
        let rows = self.rows.as_deref();
        let slot = self.leaves.entry(key).or_insert_with(|| {
            self.produced += 1;
            // A ragged source is served padded with zeros to its longest sample.
            Box::new(match (rows, from) {
                (None, SourceView::Dense(b)) => b.format_as::<QS>().to_shared(),
                (None, SourceView::Ragged(r)) => r.to_padded().format_as::<QS>().to_shared(),
                (Some(rows), from) => gather_rows::<RS, QS>(&from, rows).to_shared(),
            })
        });
        slot.downcast_ref::<ArcBatch<QS>>().unwrap_or_else(|| {
            unreachable!("the cache keys each batch by its own (source, space) type")
        })
    }
}

/// The samples `rows` of `from` as a batch of `QS`, gathered and converted in one pass (a ragged
/// source padded with zeros to the longest of them).
fn gather_rows<RS: FormatAs<QS>, QS: Space>(
    from: &SourceView<'_, RS>,
    rows: &[usize],
) -> Batch<QS> {
    match from {
        SourceView::Dense(b) => {
            let mut out = Batch::<QS>::zeros(rows.len(), b.time_len().unwrap_or(0));
            RS::gather_view_into(b.array_view(), rows, out.array_mut_unchecked().view_mut());
            out
        }
        SourceView::Ragged(r) => {
            let longest = rows.iter().map(|&i| r.length(i)).max().unwrap_or(0);
            let mut out = Batch::<QS>::zeros(rows.len(), longest);
            ragged_rows_into::<RS, QS>(r, rows, out.array_mut_unchecked().view_mut(), longest);
            out
        }
    }
}

/// The request `Self` built from the record `R`, each leaf converted once per cache. The derive
/// implements it for every struct whose fields can be built from shared batches ([`Batch`] and
/// [`ArcBatch`] fields); its bounds are those of [`Reads`], so a mismatch is reported in the
/// words of the field.
#[diagnostic::on_unimplemented(
    message = "the request `{Self}` cannot be served from the record `{R}`",
    label = "every source of the request must be a field of the record, in a space that formats as the requested one; every batch field owned (`Batch`) or shared (`ArcBatch`)",
    note = "in generic code, a trainer's record is bounded by `R: Trains<M, C, H>` (in `batchspec::data`), which carries this bound for the model's, the costs' and the channels' requests"
)]
pub trait ServeFrom<R>: Reads<R> {
    /// Looks up, converts and hands over every leaf.
    fn serve_from(record: &R, cache: &mut ServeCache) -> Self;
}

/// The request `Self` can be served from the record `R`: [`ServeFrom`], through one blanket
/// impl. Bounds that pair a tuple of requests with a record (the data of several costs or
/// channels) are written with it: a field the record cannot serve is then reported at that
/// field, without rustc's list of the tuple impls of [`ServeFrom`] after it.
#[diagnostic::on_unimplemented(
    message = "the request `{Self}` cannot be served from the record `{R}`",
    label = "every source of the request must be a field of the record, in a space that formats as the requested one",
    note = "in generic code, a trainer's record is bounded by `R: Trains<M, C, H>` (in `batchspec::data`), which carries this bound for the model's, the costs' and the channels' requests"
)]
pub trait ServedBy<R>: ServeFrom<R> {}

impl<R, T: ServeFrom<R>> ServedBy<R> for T {}

/// [`Null`] is served from any record: it holds nothing.
#[diagnostic::do_not_recommend]
impl<R> ServeFrom<R> for Null {
    fn serve_from(_: &R, _: &mut ServeCache) -> Self {
        Null
    }
}

/// A field of a request built from the source `K` of the record `R` (see [`ReadField`]).
#[diagnostic::on_unimplemented(
    message = "the record `{R}` cannot fill a field of type `{Self}`",
    label = "the record has no such source, or holds it in a space that does not format as this one"
)]
pub trait ServeField<R, K>: ReadField<R, K> + Sized {
    /// The field's value.
    fn serve_field(record: &R, cache: &mut ServeCache) -> Self;
}

impl<R, K, S, D> ServeField<R, K> for Batch<S, D>
where
    R: HasSource<K>,
    K: Source,
    S: Space,
    D: ndarray::Data<Elem = S::Elem>,
    R::Space: FormatAs<S>,
    Batch<S, D>: FromShared<S>,
{
    fn serve_field(record: &R, cache: &mut ServeCache) -> Self {
        Self::from_shared(cache.get_or_convert::<K, R::Space, S>(record.source_view()))
    }
}

impl<R, K> ServeField<R, K> for Null {
    fn serve_field(_: &R, _: &mut ServeCache) -> Self {
        Null
    }
}

macro_rules! serve_tuples {
    ($($t:ident $i:tt),+) => {
        impl<R, $($t: ServeFrom<R>),+> ServeFrom<R> for ($($t,)+) {
            fn serve_from(record: &R, cache: &mut ServeCache) -> Self {
                ($($t::serve_from(record, cache),)+)
            }
        }
        impl<R, K, $($t: ServeField<R, K>),+> ServeField<R, K> for ($($t,)+) {
            fn serve_field(record: &R, cache: &mut ServeCache) -> Self {
                ($($t::serve_field(record, cache),)+)
            }
        }
    };
}
for_tuples!(serve_tuples);

/// A request's field that [`serve`] can build from the record `R`'s whole sources. The derive
/// writes it as a bound on [`ServeFrom`] for each field built batch by batch (collated,
/// computed, augmented or mixed), naming the field by its type beside the struct
/// (`Request·tokens`); nothing implements it for those, so the bound is the refusal, in the
/// field's words.
#[diagnostic::on_unimplemented(
    message = "field `{Self}` is built batch by batch: `serve` cannot build it",
    label = "`serve` gives whole sources",
    note = "a field with a collate policy (`pad`, `pad_to`, `truncate`), a computed field (`lengths_of`, `mask_of`), an augmented one (`augment`) and a mixed one (`mixed_with`) are built batch by batch: a provider or a dataset selection builds them"
)]
pub trait ServedWhole<R> {
    /// Never called: the value the refused field would have.
    #[doc(hidden)]
    fn serve_value<T>() -> T;
}

// Never used: it only keeps rustc from calling the trait one without implementations.
#[diagnostic::do_not_recommend]
impl<R> ServedWhole<R> for Null {
    fn serve_value<T>() -> T {
        unreachable!()
    }
}

/// Serves the request `Q` from `record`, converting each leaf once (`cache` keeps the leaves
/// for other requests on the same record; clear it for the next record).
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::mapping::{ServeCache, serve};
///
/// #[derive(DataSpec)]
/// struct Record {
///     #[spec(source = "features")]
///     image: Batch<image![2, 2, 1; BHWC, u8]>,
///     #[spec(source = "targets")]
///     label: Batch<Index<3>>,
/// }
/// #[derive(DataSpec)]
/// struct Request {
///     #[spec(source = "features")]
///     x: Batch<Vector<4>>,
///     #[spec(source = "targets")]
///     y: Batch<Vector<3>>,
/// }
/// let record = Record {
///     image: Batch::new(ndarray::Array4::from_elem((2, 2, 2, 1), 7u8)).unwrap(),
///     label: Batch::new(ndarray::array![[2i64], [0]]).unwrap(),
/// };
/// let request: Request = serve(&record, &mut ServeCache::new());
/// assert_eq!(request.x.array(), &ndarray::Array2::from_elem((2, 4), 7.0f32));
/// assert_eq!(request.y.array(), &ndarray::array![[0.0f32, 0.0, 1.0], [1.0, 0.0, 0.0]]);
/// ```
pub fn serve<R, Q: ServeFrom<R>>(record: &R, cache: &mut ServeCache) -> Q {
    Q::serve_from(record, cache)
}

/// One record being served to several consumers: every (source, space) leaf any of them asks
/// for is converted once and shared.
pub struct Server<'r, R> {
    record: &'r R,
    cache: ServeCache,
}

impl<'r, R> Server<'r, R> {
    /// Serves `record`.
    pub fn new(record: &'r R) -> Self {
        Server {
            record,
            cache: ServeCache::new(),
        }
    }

    /// The request `Q`, from the binding (`let input: ModelInput = server.get();`) or the
    /// consumer's signature.
    pub fn get<Q: ServeFrom<R>>(&mut self) -> Q {
        Q::serve_from(self.record, &mut self.cache)
    }

    /// How many leaves were converted so far: the unique (source, space) pairs asked for.
    pub fn produced(&self) -> usize {
        self.cache.produced()
    }
}
