//! Serving a request from a record at run time: each leaf of the request is looked up by source
//! in the record (at compile time), converted, and handed over; a leaf asked for twice, by one
//! request or by several consumers, is produced once.

use crate::format::FormatAs;
use crate::mapping::matching::{HasSource, Here, There};
use crate::types::batch::{ArcBatch, Batch, BatchView};
use crate::types::hlist::{HCons, HNil};
use crate::types::source::Source;
use crate::types::space::Space;
use crate::types::spec::{DataSpec, FlatOf, Leaf, LeavesOf, Node};
use core::any::{Any, TypeId};
use ndarray::Data;
use std::collections::HashMap;

/// Picks the element at the index `I` of a list.
pub trait PickAt<I> {
    /// The element.
    type Item;
    /// The element at `I`.
    fn pick_at(self) -> Self::Item;
}

impl<H, T> PickAt<Here> for HCons<H, T> {
    type Item = H;
    #[inline(always)]
    fn pick_at(self) -> H {
        self.head
    }
}

impl<H, T: PickAt<I>, I> PickAt<There<I>> for HCons<H, T> {
    type Item = T::Item;
    #[inline(always)]
    fn pick_at(self) -> T::Item {
        self.tail.pick_at()
    }
}

/// A reference to a batch of `S`, seen as a view.
pub trait LeafView<S: Space> {
    /// The view.
    fn leaf_view(&self) -> BatchView<'_, S>;
}

impl<S: Space, R: Data<Elem = S::Elem>> LeafView<S> for &Batch<S, R> {
    fn leaf_view(&self) -> BatchView<'_, S> {
        self.view()
    }
}

/// A request leaf's value built from a shared, converted batch: an [`ArcBatch`] takes it as it is
/// (no copy), a [`Batch`] takes its own copy.
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

    /// How many leaves were converted since the last [`ServeCache::clear`]: the unique
    /// (source, space) pairs asked for.
    pub fn produced(&self) -> usize {
        self.produced
    }

    fn get_or_convert<Src: Source, RS: FormatAs<QS>, QS: Space>(
        &mut self,
        from: BatchView<'_, RS>,
    ) -> &ArcBatch<QS> {
        let key = TypeId::of::<(Src, QS)>();
        let slot = self.leaves.entry(key).or_insert_with(|| {
            self.produced += 1;
            Box::new(from.format_as::<QS>().to_shared())
        });
        slot.downcast_ref::<ArcBatch<QS>>().unwrap_or_else(|| {
            unreachable!("the cache keys each batch by its own (source, space) type")
        })
    }
}

/// Builds the flat values of a request (`Self` = (request leaves, request flat values)) from the
/// references `RF` to a record's leaves `RL`, at the inferred indices `I`.
pub trait PullLeaves<RL, RF, I> {
    /// The request's flat values.
    type Values;
    /// Looks up, converts and hands over every leaf.
    fn pull(record: RF, cache: &mut ServeCache) -> Self::Values;
}

impl<RL, RF> PullLeaves<RL, RF, HNil> for (HNil, HNil) {
    type Values = HNil;
    fn pull(_: RF, _: &mut ServeCache) -> HNil {
        HNil
    }
}

impl<RL, RF, Src, QS, QT, QB, QFT, I, IT> PullLeaves<RL, RF, HCons<I, IT>>
    for (HCons<Leaf<Src, QS>, QT>, HCons<QB, QFT>)
where
    Src: Source,
    QS: Space,
    RL: HasSource<Src, I>,
    RL::Space: FormatAs<QS>,
    RF: PickAt<I> + Copy,
    <RF as PickAt<I>>::Item: LeafView<RL::Space>,
    QB: FromShared<QS>,
    (QT, QFT): PullLeaves<RL, RF, IT, Values = QFT>,
{
    type Values = HCons<QB, QFT>;
    fn pull(record: RF, cache: &mut ServeCache) -> Self::Values {
        let leaf = record.pick_at();
        let head = QB::from_shared(cache.get_or_convert::<Src, RL::Space, QS>(leaf.leaf_view()));
        HCons {
            head,
            tail: <(QT, QFT)>::pull(record, cache),
        }
    }
}

/// Serves the request `Q` from `record`, converting each leaf once (`cache` keeps the leaves
/// for other requests on the same record; clear it for the next record).
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::serve::{ServeCache, serve};
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
/// let request = serve::<_, Request, _>(&record, &mut ServeCache::new());
/// assert_eq!(request.x.array(), &ndarray::Array2::from_elem((2, 4), 7.0f32));
/// assert_eq!(request.y.array(), &ndarray::array![[0.0f32, 0.0, 1.0], [1.0, 0.0, 0.0]]);
/// ```
pub fn serve<'r, R, Q, I>(record: &'r R, cache: &mut ServeCache) -> Q
where
    R: DataSpec,
    Q: DataSpec,
    <R as Node<()>>::FlatRef<'r>: Copy,
    (LeavesOf<Q>, FlatOf<Q>):
        PullLeaves<LeavesOf<R>, <R as Node<()>>::FlatRef<'r>, I, Values = FlatOf<Q>>,
{
    Q::nest(<(LeavesOf<Q>, FlatOf<Q>)>::pull(
        record.flatten_ref(),
        cache,
    ))
}

/// One record being served to several consumers: every (source, space) leaf any of them asks
/// for is converted once and shared.
pub struct Server<'r, R> {
    record: &'r R,
    cache: ServeCache,
}

impl<'r, R: DataSpec> Server<'r, R> {
    /// Serves `record`.
    pub fn new(record: &'r R) -> Self {
        Server {
            record,
            cache: ServeCache::new(),
        }
    }

    /// The request `Q` (write `server.get::<Q, _>()`).
    pub fn get<Q, I>(&mut self) -> Q
    where
        Q: DataSpec,
        <R as Node<()>>::FlatRef<'r>: Copy,
        (LeavesOf<Q>, FlatOf<Q>):
            PullLeaves<LeavesOf<R>, <R as Node<()>>::FlatRef<'r>, I, Values = FlatOf<Q>>,
    {
        serve::<R, Q, I>(self.record, &mut self.cache)
    }

    /// How many leaves were converted so far: the unique (source, space) pairs asked for.
    pub fn produced(&self) -> usize {
        self.cache.produced()
    }
}
