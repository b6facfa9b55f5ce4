//! Typed batches: ndarray storage whose shape has been checked against a space.
//!
//! A [`Batch<S>`] is built once from an array, where the data enters: the rank, every static size
//! and, for index spaces, every label is checked then. After that the batch's validity is a
//! type fact and nothing checks it again.

use crate::types::error::{Shape, SpecError};
use crate::types::space::Space;
use core::fmt;
use core::marker::PhantomData;
use ndarray::{
    ArrayBase, ArrayView, Data, Dimension, IntoDimension, IxDyn, OwnedArcRepr, OwnedRepr, RawData,
    ViewRepr,
};

/// A batch of the space `S`, stored as an ndarray array with representation `R` (owned by
/// default; see [`BatchView`] and [`ArcBatch`]).
///
/// ```
/// use batchspec::prelude::*;
/// use ndarray::Array2;
///
/// let ok = Batch::<Vector<3>>::new(Array2::zeros((4, 3))).unwrap();
/// assert_eq!(ok.len(), 4);
///
/// let err = Batch::<Vector<4>>::new(Array2::zeros((4, 3))).unwrap_err();
/// assert_eq!(err.to_string(), "vector 4 bf f32: axis 1 (feature) must have size 4, got 3 (shape (4, 3))");
/// ```
pub struct Batch<S: Space, R: RawData<Elem = S::Elem> = OwnedRepr<<S as Space>::Elem>> {
    data: ArrayBase<R, S::Dim>,
    space: PhantomData<fn() -> S>,
}

/// A batch that borrows its data.
pub type BatchView<'a, S> = Batch<S, ViewRepr<&'a <S as Space>::Elem>>;
/// A batch whose data is shared by reference counting: cloning it does not copy the data.
pub type ArcBatch<S> = Batch<S, OwnedArcRepr<<S as Space>::Elem>>;

/// Checks `shape` against the static sizes of `S`.
pub(crate) fn check_shape<S: Space>(shape: &[usize]) -> Result<(), SpecError> {
    S::check_space().map_err(|reason| SpecError::Space {
        space: S::describe(),
        reason,
    })?;
    if shape.len() != S::SHAPE.len() {
        return Err(SpecError::Rank {
            space: S::describe(),
            expected: S::SHAPE.len(),
            actual: shape.len(),
            shape: Shape(shape.to_vec()),
        });
    }
    let letters = <S::Layout as crate::types::axis::Layout>::LETTERS;
    for (axis, (want, &got)) in S::SHAPE.iter().zip(shape).enumerate() {
        if let Some(want) = *want
            && want != got
        {
            return Err(SpecError::Size {
                space: S::describe(),
                axis,
                axis_name: axis_name(letters[axis]),
                expected: want,
                actual: got,
                shape: Shape(shape.to_vec()),
            });
        }
    }
    Ok(())
}

fn axis_name(letter: char) -> &'static str {
    use crate::types::axis::{Axis, B, C, D, F, H, K, T, W};
    match letter {
        'b' => B::NAME,
        'f' => F::NAME,
        't' => T::NAME,
        'c' => C::NAME,
        'h' => H::NAME,
        'w' => W::NAME,
        'd' => D::NAME,
        'k' => K::NAME,
        _ => "axis",
    }
}

impl<S: Space, R: Data<Elem = S::Elem>> Batch<S, R> {
    /// Checks `data` against `S` and wraps it.
    ///
    /// # Errors
    /// [`SpecError::Size`] when a static axis has another size, [`SpecError::Label`] when a label of an
    /// index space is negative or not below `max_labels`.
    pub fn new(data: ArrayBase<R, S::Dim>) -> Result<Self, SpecError> {
        check_shape::<S>(data.shape())?;
        S::check_values(&data.view())?;
        Ok(Batch {
            data,
            space: PhantomData,
        })
    }

    /// Checks an array of any rank against `S` and wraps it.
    ///
    /// # Errors
    /// [`SpecError::Rank`] when the rank differs, and the errors of [`Batch::new`].
    pub fn from_dyn(data: ArrayBase<R, IxDyn>) -> Result<Self, SpecError> {
        check_shape::<S>(data.shape())?;
        let data = data
            .into_dimensionality::<S::Dim>()
            .map_err(|_| SpecError::Rank {
                space: S::describe(),
                expected: S::SHAPE.len(),
                actual: 0,
                shape: Shape(Vec::new()),
            })?;
        Self::new(data)
    }

    /// Wraps `data` without checking it.
    ///
    /// Only for data whose validity is already a fact (the output of a conversion whose result
    /// shape is computed from the types). A wrong shape here is a bug in the caller.
    #[doc(hidden)]
    pub fn from_checked(data: ArrayBase<R, S::Dim>) -> Self {
        debug_assert!(check_shape::<S>(data.shape()).is_ok());
        Batch {
            data,
            space: PhantomData,
        }
    }

    /// The number of samples (the size of the batch axis).
    pub fn len(&self) -> usize {
        self.data.shape()[S::BATCH_AXIS]
    }

    /// `true` for a batch of no samples (a valid batch).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of time steps of a batch of a sequence space.
    pub fn time_len(&self) -> Option<usize> {
        S::TIME_AXIS.map(|t| self.data.shape()[t])
    }

    /// The data.
    pub fn array(&self) -> &ArrayBase<R, S::Dim> {
        &self.data
    }

    /// The data as a view.
    pub fn array_view(&self) -> ArrayView<'_, S::Elem, S::Dim> {
        self.data.view()
    }

    /// The batch as a borrowed batch.
    pub fn view(&self) -> BatchView<'_, S> {
        Batch {
            data: self.data.view(),
            space: PhantomData,
        }
    }

    /// The data, giving up the type.
    pub fn into_array(self) -> ArrayBase<R, S::Dim> {
        self.data
    }

    /// An owned copy.
    pub fn to_owned(&self) -> Batch<S> {
        Batch {
            data: self.data.to_owned(),
            space: PhantomData,
        }
    }

    /// A copy shared by reference counting (see [`ArcBatch`]).
    pub fn to_shared(&self) -> ArcBatch<S> {
        Batch {
            data: self.data.to_shared(),
            space: PhantomData,
        }
    }

    /// The shape of the data.
    pub fn shape(&self) -> &[usize] {
        self.data.shape()
    }
}

impl<S: Space, R: ndarray::DataMut<Elem = S::Elem>> Batch<S, R> {
    /// The data, mutably. Writing can break no shape rule, but writing a label outside
    /// `0..max_labels` into an index batch is the caller's responsibility: use
    /// [`Batch::set_label`] for checked writes.
    pub fn array_mut(&mut self) -> &mut ArrayBase<R, S::Dim> {
        &mut self.data
    }
}

impl<S: Space> Batch<S> {
    /// A batch of `batch` samples (and `time` steps, for sequence spaces; ignored otherwise)
    /// filled with zeros.
    pub fn zeros(batch: usize, time: usize) -> Self {
        let shape = S::shape(batch, time);
        let dim = IxDyn(&shape);
        let data = ndarray::Array::from_elem(dim, <S::Elem as crate::types::elem::Element>::ZERO)
            .into_dimensionality::<S::Dim>()
            .unwrap_or_else(|_| unreachable!("the rank of a space matches its dimension type"));
        Batch {
            data,
            space: PhantomData,
        }
    }
}

impl<S: Space, R: ndarray::DataMut<Elem = S::Elem>> Batch<S, R>
where
    S::Elem: crate::types::elem::IndexElement,
{
    /// Writes label `label` at `index`, refusing a label not in `0..max_labels`.
    ///
    /// # Errors
    /// [`SpecError::Label`] for a label outside the range; nothing is written then.
    pub fn set_label<I: IntoDimension<Dim = S::Dim>>(
        &mut self,
        index: I,
        label: usize,
    ) -> Result<(), SpecError> {
        let index = index.into_dimension();
        let bad = || SpecError::Label {
            space: S::describe(),
            position: crate::types::error::Position(index.slice().to_vec()),
            value: label.to_string(),
            max_labels: S::MAX_LABELS.unwrap_or(usize::MAX),
        };
        if S::MAX_LABELS.is_some_and(|m| label >= m) {
            return Err(bad());
        }
        let v = <S::Elem as crate::types::elem::IndexElement>::from_label(label).ok_or_else(bad)?;
        match self.data.get_mut(index.clone()) {
            Some(slot) => {
                *slot = v;
                Ok(())
            }
            None => Err(SpecError::OutOfBounds {
                space: S::describe(),
                position: crate::types::error::Position(index.slice().to_vec()),
                shape: Shape(self.data.shape().to_vec()),
            }),
        }
    }
}

impl<S: Space, R: ndarray::RawDataClone<Elem = S::Elem>> Clone for Batch<S, R> {
    fn clone(&self) -> Self {
        Batch {
            data: self.data.clone(),
            space: PhantomData,
        }
    }
}

impl<S: Space, R: Data<Elem = S::Elem>> fmt::Debug for Batch<S, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Batch")
            .field("space", &S::describe())
            .field("shape", &Shape(self.data.shape().to_vec()))
            .field("data", &self.data)
            .finish()
    }
}

impl<S: Space, R: Data<Elem = S::Elem>, R2: Data<Elem = S::Elem>> PartialEq<Batch<S, R2>>
    for Batch<S, R>
{
    fn eq(&self, other: &Batch<S, R2>) -> bool {
        self.data == other.data
    }
}

impl<S: Space, R: Data<Elem = S::Elem>> Batch<S, R> {
    /// The batch with every element cast to `E2` as `as` does, including casts that lose values
    /// (floats to integers truncate and saturate). The only way batchspec casts lossily.
    pub fn cast_lossy<E2: crate::types::elem::Element>(
        &self,
    ) -> Batch<<S as crate::types::space::Recast<E2>>::With>
    where
        S: crate::types::space::Recast<E2>,
        S::Elem: crate::types::elem::LossyCast<E2>,
    {
        let data = self
            .data
            .map(|v| crate::types::elem::LossyCast::cast_lossy(*v));
        let data = data
            .into_dyn()
            .into_dimensionality::<<<S as crate::types::space::Recast<E2>>::With as Space>::Dim>()
            .unwrap_or_else(|_| unreachable!("a recast space keeps its rank"));
        Batch {
            data,
            space: PhantomData,
        }
    }
}
