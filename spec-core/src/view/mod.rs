//! Views (dp's `View`): one batch put by a producer, read by any number of consumers in the
//! forms they name by type, with their gradients routed back to the producer.
//!
//! Each requested form is converted once per put and cached; a later get of the same form
//! returns the cached batch (shared, no copy). A consumer puts its gradient back in the form it
//! got; the producer takes one gradient in the base layout, with elements `G`: every consumer's
//! gradient converted back (inverse permutation, un-flatten, element cast) and summed. A form
//! that has no inverse (labels made one-hot) can be got, but a gradient for it does not compile.
#![doc = include_str!("../../doc/view.md")]

pub(crate) mod error;

pub use error::ViewError;

use crate::format::FormatAs;
use crate::mapping::matching::HasSource;
use crate::mapping::serve::ServeFrom;
use crate::types::batch::{ArcBatch, Batch, BatchView};
use crate::types::elem::Element;
use crate::types::error::Shape;
use crate::types::format_as::FormatError;
use crate::types::space::{Recast, Space};
use core::any::{Any, TypeId};
use std::collections::HashMap;

struct Cached {
    batch: Box<dyn Any + Send + Sync>,
    fresh: bool,
    got: bool,
}

/// A view over one base batch of the space `S`; gradients are summed in elements of `G`.
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::view::View;
/// use ndarray::Array4;
///
/// let mut view = View::<image![32, 32, 3; BHWC], f32>::new();
/// view.put(Batch::new(Array4::from_elem((8, 32, 32, 3), 1.0))?)?;
/// let conv = view.get::<image![32, 32, 3; BCHW]>()?;
/// assert_eq!(conv.shape(), [8, 3, 32, 32]);
/// let dense = view.get::<Vector<3072>>()?;
/// assert_eq!(dense.shape(), [8, 3072]);
/// view.put_gradient(&Batch::<image![32, 32, 3; BCHW]>::new(Array4::from_elem((8, 3, 32, 32), 1.0))?)?;
/// view.put_gradient(&Batch::<Vector<3072>>::new(ndarray::Array2::from_elem((8, 3072), 2.0))?)?;
/// assert!(view.gradient()?.array().iter().all(|&g| g == 3.0));
/// # Ok::<(), batchspec::Error>(())
/// ```
pub struct View<S: Space, G: Element = f64> {
    base: Option<Batch<S>>,
    forms: HashMap<TypeId, Cached>,
    /// The summed gradient, a `Batch<S::With<G>>` for spaces that have gradients.
    gradient: Option<Box<dyn Any + Send + Sync>>,
    gradients_put: usize,
    /// The names of the labels of an index base (dp's `ClassView:setClasses`).
    classes: Option<Vec<String>>,
    _g: core::marker::PhantomData<fn() -> G>,
}

impl<S: Space, G: Element> Default for View<S, G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: Space, G: Element> View<S, G> {
    /// An empty view.
    pub fn new() -> Self {
        View {
            base: None,
            forms: HashMap::new(),
            gradient: None,
            gradients_put: 0,
            classes: None,
            _g: core::marker::PhantomData,
        }
    }

    /// Names the classes of an index base, one name per label in label order (dp's
    /// `ClassView:setClasses`); they stay across puts.
    ///
    /// ```
    /// use batchspec::prelude::*;
    /// use batchspec::view::View;
    ///
    /// // dp: `dv = dp.ClassView('b', torch.IntTensor{4,1,3,4,1,2,3,1}); dv:setClasses({0,1,2,3})`,
    /// // here with names, and labels 0..5.
    /// let mut view = View::<Labels<5>>::new();
    /// view.set_classes(["zero", "one", "two", "three", "four"])?;
    /// view.put(Batch::new(ndarray::array![4i64, 1, 3, 4, 1, 2, 3, 1])?)?;
    /// assert_eq!(view.class_names()?, ["four", "one", "three", "four", "one", "two", "three", "one"]);
    /// assert_eq!(view.class_name(2), Some("two"));
    /// // One name per label, and only for labels.
    /// assert!(view.set_classes(["a", "b"]).is_err());
    /// assert!(View::<Vector<3>>::new().set_classes(["a", "b", "c"]).is_err());
    /// # Ok::<(), batchspec::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`ViewError::Classes`] when the base's space is not an index space, or the number of
    /// names is not its number of labels.
    pub fn set_classes<I, N>(&mut self, names: I) -> Result<(), ViewError>
    where
        I: IntoIterator<Item = N>,
        N: Into<String>,
    {
        let names: Vec<String> = names.into_iter().map(Into::into).collect();
        if S::MAX_LABELS != Some(names.len()) {
            return Err(ViewError::Classes {
                space: S::describe(),
                given: names.len(),
            });
        }
        self.classes = Some(names);
        Ok(())
    }

    /// The class names, if set.
    pub fn classes(&self) -> Option<&[String]> {
        self.classes.as_deref()
    }

    /// The name of the label `label`, if the classes are set and it is one of them.
    pub fn class_name(&self, label: usize) -> Option<&str> {
        self.classes.as_ref()?.get(label).map(String::as_str)
    }

    /// The class name of every value of the base, in memory order (one per sample for
    /// `Labels`, `DIM` per sample for an `Index`).
    ///
    /// # Errors
    /// [`ViewError::ViewEmpty`] before the first put; [`ViewError::Classes`] when no classes
    /// are set.
    pub fn class_names(&self) -> Result<Vec<&str>, ViewError> {
        let base = self.base.as_ref().ok_or(ViewError::ViewEmpty)?;
        let classes = self.classes.as_ref().ok_or_else(|| ViewError::Classes {
            space: S::describe(),
            given: 0,
        })?;
        // Every label of a batch is below the space's labels (checked when it was built), and
        // there is one name per label.
        Ok(base
            .array()
            .iter()
            .map(|v| {
                v.to_label()
                    .and_then(|l| classes.get(l))
                    .map_or("", String::as_str)
            })
            .collect())
    }

    /// Puts a new base batch (dp's `forwardPut`): every cached form is marked stale and will
    /// be recomputed into its own memory on its next get; the gradient is reset.
    ///
    /// # Errors
    /// None today; the `Result` leaves room for checks of the producer's protocol.
    pub fn put(&mut self, batch: Batch<S>) -> Result<(), ViewError> {
        self.base = Some(batch);
        for form in self.forms.values_mut() {
            form.fresh = false;
            form.got = false;
        }
        self.gradient = None;
        self.gradients_put = 0;
        Ok(())
    }

    /// Copies `batch` into the base, reusing its memory when the number of samples is the same.
    ///
    /// # Errors
    /// As [`View::put`].
    pub fn put_view(&mut self, batch: BatchView<'_, S>) -> Result<(), ViewError> {
        match &mut self.base {
            Some(base) if base.shape() == batch.shape() => {
                base.array_mut_unchecked().assign(batch.array());
                let owned = self
                    .base
                    .take()
                    .unwrap_or_else(|| unreachable!("matched Some"));
                self.put(owned)
            }
            _ => self.put(batch.to_owned()),
        }
    }

    /// The base batch.
    ///
    /// # Errors
    /// [`ViewError::ViewEmpty`] before the first put.
    pub fn base(&self) -> Result<&Batch<S>, ViewError> {
        self.base.as_ref().ok_or(ViewError::ViewEmpty)
    }

    /// The base in the form `T` (dp's `forwardGet`): converted once per put, then cached.
    ///
    /// # Errors
    /// [`ViewError::ViewEmpty`] before the first put.
    pub fn get<T: Space>(&mut self) -> Result<ArcBatch<T>, ViewError>
    where
        S: FormatAs<T>,
    {
        let base = self.base.as_ref().ok_or(ViewError::ViewEmpty)?;
        let key = TypeId::of::<T>();
        let entry = self.forms.entry(key).or_insert_with(|| Cached {
            batch: Box::new(base.format_as::<T>().to_shared()),
            fresh: true,
            got: false,
        });
        let cached = entry
            .batch
            .downcast_mut::<ArcBatch<T>>()
            .unwrap_or_else(|| unreachable!("forms are keyed by their own type"));
        if !entry.fresh {
            if cached.len() == base.len() {
                // Reuse the memory: the conversion writes into the cached batch (copied first
                // only if a consumer still holds the previous one).
                base.format_into(cached)?;
            } else {
                *cached = base.format_as::<T>().to_shared();
            }
            entry.fresh = true;
        }
        entry.got = true;
        Ok(cached.clone())
    }

    /// Drops every cached form (dp's `flush`).
    pub fn flush(&mut self) {
        self.forms.clear();
    }

    /// A view of the samples `indices` of the base (dp's `index`), written into `out` so its
    /// storage is reused when it already holds as many samples.
    ///
    /// # Errors
    /// [`ViewError::ViewEmpty`], or [`SpecError::Row`](crate::types::error::SpecError::Row) for an index past the end.
    pub fn index_into(&self, indices: &[usize], out: &mut View<S, G>) -> Result<(), ViewError>
    where
        S: FormatAs<S>,
    {
        let base = self.base.as_ref().ok_or(ViewError::ViewEmpty)?;
        let mut batch = match out.base.take() {
            Some(b) if b.len() == indices.len() => b,
            _ => Batch::<S>::zeros(indices.len(), base.time_len().unwrap_or(0)),
        };
        base.gather_into::<S, _>(indices, &mut batch)?;
        out.put(batch)
    }

    /// A view of the samples `start..stop` of the base (dp's `sub`), reusing `out`'s storage.
    ///
    /// # Errors
    /// As [`View::index_into`].
    pub fn sub_into(&self, start: usize, stop: usize, out: &mut View<S, G>) -> Result<(), ViewError>
    where
        S: FormatAs<S>,
    {
        let rows: Vec<usize> = (start..stop.max(start)).collect();
        self.index_into(&rows, out)
    }

    /// Replaces the base by a consumer's output in the form `T`, converted to the base layout
    /// (dp's `replace`, for preprocessing).
    ///
    /// # Errors
    /// [`ViewError::ViewEmpty`] before the first put; [`FormatError::OutputShape`] for another number of
    /// samples.
    pub fn replace<T>(&mut self, data: &Batch<T>) -> Result<(), ViewError>
    where
        T: FormatAs<S>,
    {
        let base = self.base.as_mut().ok_or(ViewError::ViewEmpty)?;
        data.format_into(base)?;
        let owned = self
            .base
            .take()
            .unwrap_or_else(|| unreachable!("checked above"));
        self.put(owned)
    }
}

impl<S: Space + Recast<G>, G: Element> View<S, G> {
    /// The gradient accumulator, zeros of `n` samples when there is none.
    fn gradient_slot(&mut self, n: usize, t: usize) -> &mut Batch<<S as Recast<G>>::With> {
        let fits = self
            .gradient
            .as_ref()
            .and_then(|g| g.downcast_ref::<Batch<<S as Recast<G>>::With>>())
            .is_some_and(|g| g.len() == n);
        if !fits {
            self.gradient = Some(Box::new(Batch::<<S as Recast<G>>::With>::zeros(n, t)));
        }
        self.gradient
            .as_mut()
            .and_then(|g| g.downcast_mut())
            .unwrap_or_else(|| unreachable!("the gradient was just made of this type"))
    }

    /// Adds the gradient of a consumer, in the form `T` it got, to the base gradient (dp's
    /// `backwardPut`): converted back to the base layout with elements `G`.
    ///
    /// # Errors
    /// [`ViewError::GradientWithoutGet`] when `T` was not got since the last put;
    /// [`FormatError::OutputShape`] when the gradient has another number of samples.
    pub fn put_gradient<T>(&mut self, gradient: &Batch<T>) -> Result<(), ViewError>
    where
        T: FormatAs<<S as Recast<G>>::With>,
        S: FormatAs<T>,
    {
        let got = self.forms.get(&TypeId::of::<T>()).is_some_and(|f| f.got);
        if !got {
            return Err(ViewError::GradientWithoutGet {
                form: T::describe(),
            });
        }
        let base = self.base.as_ref().ok_or(ViewError::ViewEmpty)?;
        let back = gradient.format_as::<<S as Recast<G>>::With>();
        if back.len() != base.len() {
            return Err(FormatError::OutputShape {
                space: T::describe(),
                expected: Shape(T::shape(base.len(), base.time_len().unwrap_or(0))),
                actual: Shape(gradient.shape().to_vec()),
            }
            .into());
        }
        let sum = self.gradient_slot(back.len(), back.time_len().unwrap_or(0));
        sum.array_mut_unchecked()
            .zip_mut_with(back.array(), |s, &g| *s = *s + g);
        self.gradients_put += 1;
        Ok(())
    }

    /// The summed gradient in the base layout (dp's `backwardGet`); zeros when no consumer has
    /// put one since the last put.
    ///
    /// # Errors
    /// [`ViewError::ViewEmpty`] before the first put.
    pub fn gradient(&mut self) -> Result<&Batch<<S as Recast<G>>::With>, ViewError> {
        let base = self.base.as_ref().ok_or(ViewError::ViewEmpty)?;
        let (n, t) = (base.len(), base.time_len().unwrap_or(0));
        Ok(self.gradient_slot(n, t))
    }

    /// How many gradients were put since the last put.
    pub fn gradients_put(&self) -> usize {
        self.gradients_put
    }
}

/// The gradient of the record `R`'s leaf of source `Src`, in elements `G`.
pub type LeafGradient<R, Src, G> = <<R as HasSource<Src>>::Space as Recast<G>>::With;

/// A view over a record of several leaves (dp's `ListView`, finished): requests by type, each
/// converted once per put, and gradients routed back leaf by leaf to the record's sources.
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::view::SpecView;
/// use ndarray::Array4;
///
/// #[derive(DataSpec)]
/// struct Two {
///     #[spec(source = "left")]
///     a: Batch<image![3, 4, 2; BCHW]>,
///     #[spec(source = "right")]
///     b: Batch<image![3, 4, 2; BCHW]>,
/// }
/// #[derive(DataSpec)]
/// struct TwoBhwc {
///     #[spec(source = "left")]
///     a: ArcBatch<image![3, 4, 2; BHWC]>,
///     #[spec(source = "right")]
///     b: ArcBatch<image![3, 4, 2; BHWC]>,
/// }
/// let mut view = SpecView::<Two, f32>::new();
/// view.put(Two { a: Batch::new(Array4::zeros((1, 2, 3, 4)))?, b: Batch::new(Array4::zeros((1, 2, 3, 4)))? });
/// let got: TwoBhwc = view.get()?;
/// assert_eq!((got.a.shape(), got.b.shape()), ([1, 3, 4, 2].as_slice(), [1, 3, 4, 2].as_slice()));
/// # Ok::<(), batchspec::Error>(())
/// ```
pub struct SpecView<R, G: Element = f64> {
    pub(crate) base: Option<R>,
    cache: crate::mapping::serve::ServeCache,
    gradients: HashMap<TypeId, Box<dyn Any + Send + Sync>>,
    _g: core::marker::PhantomData<fn() -> G>,
}

impl<R: crate::types::spec::DataSpec, G: Element> Default for SpecView<R, G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<R: crate::types::spec::DataSpec, G: Element> SpecView<R, G> {
    /// An empty view.
    pub fn new() -> Self {
        SpecView {
            base: None,
            cache: crate::mapping::serve::ServeCache::new(),
            gradients: HashMap::new(),
            _g: core::marker::PhantomData,
        }
    }

    /// Puts a new record: cached requests and gradients are dropped.
    pub fn put(&mut self, record: R) {
        self.base = Some(record);
        self.cache.clear();
        self.gradients.clear();
    }

    /// Drops every converted leaf (dp's `flush`): the next get converts again, and a gradient
    /// needs a get after it.
    pub fn flush(&mut self) {
        self.cache.clear();
    }

    /// Replaces the record by a consumer's output `output`, each of the record's sources
    /// converted back from the output's leaf of that source (dp's `replace`, for
    /// preprocessing); cached leaves and gradients are dropped, as by a put.
    ///
    /// # Errors
    /// [`ViewError::ViewEmpty`] before the first put; [`ViewError::ReplacementLength`] when the
    /// output holds another number of samples; a [`SpecError`](crate::types::error::SpecError)
    /// when its leaves disagree.
    pub fn replace<Q>(&mut self, output: &Q) -> Result<(), ViewError>
    where
        Q: crate::types::spec::DataSpec,
        R: ServeFrom<Q>,
    {
        let expected = self.base.as_ref().ok_or(ViewError::ViewEmpty)?.validate()?;
        let given = output.validate()?;
        if given != expected {
            return Err(ViewError::ReplacementLength { expected, given });
        }
        let record = R::serve_from(output, &mut crate::mapping::serve::ServeCache::new());
        self.put(record);
        Ok(())
    }

    /// The record.
    ///
    /// # Errors
    /// [`ViewError::ViewEmpty`] before the first put.
    pub fn base(&self) -> Result<&R, ViewError> {
        self.base.as_ref().ok_or(ViewError::ViewEmpty)
    }

    /// The request `Q`, each of its leaves converted from the record's leaf of the same source,
    /// once per put (`let input: Q = view.get()?;`).
    ///
    /// # Errors
    /// [`ViewError::ViewEmpty`] before the first put.
    pub fn get<Q: ServeFrom<R>>(&mut self) -> Result<Q, ViewError> {
        let base = self.base.as_ref().ok_or(ViewError::ViewEmpty)?;
        Ok(Q::serve_from(base, &mut self.cache))
    }

    /// Adds the gradient of one leaf, put in the form `T` of the source `Src`, to that source's
    /// gradient in the record's layout with elements `G`.
    ///
    /// # Errors
    /// [`ViewError::ViewEmpty`] before the first put; [`ViewError::GradientWithoutGet`] when no
    /// request got the source `Src` as `T` since the last put or flush.
    pub fn put_leaf_gradient<Src, T>(&mut self, gradient: &Batch<T>) -> Result<(), ViewError>
    where
        Src: crate::types::source::Source,
        T: Space,
        R: HasSource<Src>,
        <R as HasSource<Src>>::Space: Recast<G>,
        T: FormatAs<LeafGradient<R, Src, G>>,
    {
        self.base.as_ref().ok_or(ViewError::ViewEmpty)?;
        if !self.cache.holds::<Src, T>() {
            return Err(ViewError::GradientWithoutGet {
                form: format!("{} of source `{}`", T::describe(), Src::NAME),
            });
        }
        let back = gradient.format_as::<LeafGradient<R, Src, G>>();
        let slot = self
            .gradients
            .entry(TypeId::of::<Src>())
            .or_insert_with(|| {
                Box::new(Batch::<LeafGradient<R, Src, G>>::zeros(
                    back.len(),
                    back.time_len().unwrap_or(0),
                ))
            });
        let sum = slot
            .downcast_mut::<Batch<LeafGradient<R, Src, G>>>()
            .unwrap_or_else(|| unreachable!("gradients are keyed by their source"));
        if sum.shape() != back.shape() {
            return Err(FormatError::OutputShape {
                space: T::describe(),
                expected: Shape(sum.shape().to_vec()),
                actual: Shape(gradient.shape().to_vec()),
            }
            .into());
        }
        sum.array_mut_unchecked()
            .zip_mut_with(back.array(), |s, &g| *s = *s + g);
        Ok(())
    }

    /// The summed gradient of the source `Src` in the record's layout with elements `G`; `None`
    /// when no gradient of that source was put since the last put.
    pub fn leaf_gradient<Src>(&self) -> Option<&Batch<LeafGradient<R, Src, G>>>
    where
        Src: crate::types::source::Source,
        R: HasSource<Src>,
        <R as HasSource<Src>>::Space: Recast<G>,
    {
        self.gradients.get(&TypeId::of::<Src>())?.downcast_ref()
    }
}
