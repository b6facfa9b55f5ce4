//! Typed batches: ndarray storage whose shape has been checked against a space.
//!
//! A [`Batch<S>`] is built once from an array, where the data enters: the rank, every static size
//! and, for index spaces, every label is checked then. After that the batch's validity is a
//! type fact and nothing checks it again.

use crate::types::elem::{Arith, Element};
use crate::types::error::{Shape, SpecError};
use crate::types::format_as::{FormatAs, FormatError};
use crate::types::plan::step_view;
use crate::types::space::{FreeValues, Space};
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
pub struct Batch<S: Space, R: Storage<S::Elem> = Owned<<S as Space>::Elem>> {
    data: ArrayBase<R, S::Dim>,
    space: PhantomData<fn() -> S>,
}

/// Where a batch's data of elements `E` lives: any ndarray storage (owned, shared or
/// borrowed). Its own name, so that a `Batch` given an element type in its place
/// (`Batch<Vector<3072>, f32>`) says so in words.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not the storage of a batch: a `Batch`'s second parameter says where its data lives (owned, shared, borrowed), not its element type",
    label = "the element type goes in the space, as in `Vector<3072, {Self}>` or `image![28, 28, 1; BHWC, {Self}]`",
    note = "`Batch<S>` owns its data; `ArcBatch<S>` shares it; `BatchView<'a, S>` borrows it"
)]
pub trait Storage<E>: RawData<Elem = E> {}

#[diagnostic::do_not_recommend]
impl<E, R: RawData<Elem = E>> Storage<E> for R {}

/// The storage of a batch that owns its data (ndarray's `OwnedRepr`): `Batch<S>` is
/// `Batch<S, Owned<S::Elem>>`.
pub type Owned<E> = OwnedRepr<E>;

/// A batch that borrows its data.
pub type BatchView<'a, S> = Batch<S, ViewRepr<&'a <S as Space>::Elem>>;
/// A batch that borrows its data mutably: a batch whose writes keep its space's rules (a
/// label batch is written through [`Batch::set_label`], [`Batch::update`] or [`Batch::assign`]).
pub type BatchViewMut<'a, S> = Batch<S, ViewRepr<&'a mut <S as Space>::Elem>>;
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

// The conversions as methods of a batch: `format_as` (new storage), `format_into` (no
// allocation), `view_as` (no copy) and `gather_into` (a gather fused with a conversion). They
// are here, in the batch's own module, so that rustc names them `Batch::format_as` and so on.
impl<S: Space, R: Data<Elem = S::Elem>> Batch<S, R> {
    /// The batch formatted as the space `T`, in new storage: a transpose, a reshape, a one-hot
    /// encoding or an element cast, as [`FormatAs`] decides at compile time.
    ///
    /// ```
    /// use batchspec::prelude::*;
    /// // Pylearn2: VectorSpace(12) formatted as Conv2DSpace((2, 2), 3, axes=('b', 'c', 0, 1)).
    /// let v = Batch::<Vector<12>>::new(ndarray::Array::range(0., 24., 1.).into_shape_with_order((2, 12)).unwrap()).unwrap();
    /// let img = v.format_as::<image![2, 2, 3; BCHW]>();
    /// assert_eq!(img.shape(), [2, 3, 2, 2]);
    /// assert_eq!(img.array().slice(ndarray::s![0, 0, .., ..]), ndarray::array![[0., 3.], [6., 9.]]);
    /// ```
    pub fn format_as<T: Space>(&self) -> Batch<T>
    where
        S: FormatAs<T>,
    {
        let shape = T::shape(self.len(), self.time_len().unwrap_or(0));
        let mut out = ndarray::Array::from_elem(IxDyn(&shape), T::Elem::ZERO)
            .into_dimensionality::<T::Dim>()
            .unwrap_or_else(|_| unreachable!("the rank of a space matches its dimension type"));
        S::format_view_into(self.array_view(), out.view_mut());
        Batch::from_checked(out)
    }

    /// Writes the batch formatted as `T` into `out`, allocating nothing.
    ///
    /// # Errors
    /// [`FormatError::OutputShape`] when `out` does not have the shape of this batch in `T` (another
    /// number of samples or of time steps).
    pub fn format_into<T: Space, R2: ndarray::DataMut<Elem = T::Elem>>(
        &self,
        out: &mut Batch<T, R2>,
    ) -> Result<(), FormatError>
    where
        S: FormatAs<T>,
    {
        let shape = T::shape(self.len(), self.time_len().unwrap_or(0));
        if out.shape() != shape.as_slice() {
            return Err(FormatError::OutputShape {
                space: T::describe(),
                expected: Shape(shape),
                actual: Shape(out.shape().to_vec()),
            });
        }
        S::format_view_into(self.array_view(), out.array_mut_unchecked().view_mut());
        Ok(())
    }

    /// The batch seen as the space `T` without copying, where strides can express it: another
    /// layout of the same element type, a vector seen as an image, an image in `bhwc` seen as a
    /// vector. `None` where a copy is needed ([`Batch::format_as`] then).
    pub fn view_as<T: Space<Elem = S::Elem>>(&self) -> Option<BatchView<'_, T>>
    where
        S: FormatAs<T>,
    {
        let shape = T::shape(self.len(), self.time_len().unwrap_or(0));
        let v = step_view(
            self.array_view().into_dyn(),
            <S as FormatAs<T>>::PLAN,
            &shape,
        )?;
        let v = v.into_dimensionality::<T::Dim>().ok()?;
        Some(Batch::from_checked(v))
    }

    /// The samples `rows` of this batch, formatted as `T`, written into `out` (which holds
    /// `rows.len()` samples): a gather fused with a conversion.
    ///
    /// # Errors
    /// [`SpecError::Row`] for a row past the end, [`FormatError::OutputShape`] for an `out` of another
    /// number of samples.
    pub fn gather_into<T: Space, R2: ndarray::DataMut<Elem = T::Elem>>(
        &self,
        rows: &[usize],
        out: &mut Batch<T, R2>,
    ) -> Result<(), FormatError>
    where
        S: FormatAs<T>,
    {
        if let Some(p) = rows.iter().position(|&r| r >= self.len()) {
            return Err(SpecError::Row {
                row: rows[p],
                position: p,
                len: self.len(),
            }
            .into());
        }
        if out.len() != rows.len() {
            return Err(FormatError::OutputShape {
                space: T::describe(),
                expected: Shape(T::shape(rows.len(), out.time_len().unwrap_or(0))),
                actual: Shape(out.shape().to_vec()),
            });
        }
        S::gather_view_into(
            self.array_view(),
            rows,
            out.array_mut_unchecked().view_mut(),
        );
        Ok(())
    }
}

impl<S: Space, R: ndarray::DataMut<Elem = S::Elem>> Batch<S, R> {
    /// The data, mutably, for a space whose every value is valid ([`FreeValues`]: every space
    /// but the label spaces). Writing through it can break no rule of the space: the shape
    /// cannot change. A label batch is written through [`Batch::set_label`] or
    /// [`Batch::update`], which check the labels; asking a label batch for `array_mut` does not
    /// compile:
    ///
    /// ```compile_fail
    /// use batchspec::prelude::*;
    /// let mut y = Batch::<Labels<10>>::zeros(2, 0);
    /// y.array_mut()[0] = 12; // `Labels<10>` holds labels: its data cannot be written unchecked
    /// ```
    ///
    /// [`FreeValues`]: crate::types::FreeValues
    pub fn array_mut(&mut self) -> &mut ArrayBase<R, S::Dim>
    where
        S: FreeValues,
    {
        &mut self.data
    }

    /// The batch as a mutably borrowed batch (a buffer a provider fills in place): a batch of
    /// the same space, whose own writes keep the space's rules.
    pub fn view_mut(&mut self) -> Batch<S, ViewRepr<&mut S::Elem>> {
        Batch {
            data: self.data.view_mut(),
            space: PhantomData,
        }
    }

    /// The data, mutably, whatever the space: for the library's own output buffers, whose
    /// values are written by conversions and gathers of checked data.
    #[doc(hidden)]
    pub fn array_mut_unchecked(&mut self) -> &mut ArrayBase<R, S::Dim> {
        &mut self.data
    }

    /// Changes the data with `edit` and keeps the change only if the result is a batch of `S`
    /// (for a label space, every label below the number of labels); the batch is unchanged
    /// otherwise. `edit` works on a copy, which is written back once it is checked.
    ///
    /// ```
    /// use batchspec::prelude::*;
    /// let mut y = Batch::<Labels<10>>::new(ndarray::array![1i64, 2, 3]).unwrap();
    /// y.update(|a| a.mapv_inplace(|l| (l + 1) % 10)).unwrap();
    /// assert_eq!(y.array().to_vec(), vec![2, 3, 4]);
    /// let refused = y.update(|a| a[1] = 12);
    /// assert!(refused.unwrap_err().to_string().contains("12"));
    /// assert_eq!(y.array().to_vec(), vec![2, 3, 4]); // unchanged
    /// ```
    ///
    /// # Errors
    /// [`SpecError::Label`] naming the first label of the result outside `0..max_labels`;
    /// [`SpecError::Size`] when `edit` replaced the array by one of another shape.
    pub fn update<F>(&mut self, edit: F) -> Result<(), SpecError>
    where
        F: FnOnce(&mut ndarray::Array<S::Elem, S::Dim>),
    {
        let mut copy = self.data.to_owned();
        edit(&mut copy);
        // The edit may have replaced the array: it must keep the batch's shape.
        self.check_same_shape(copy.shape())?;
        S::check_values(&copy.view())?;
        self.data.assign(&copy);
        Ok(())
    }

    /// Writes `other`'s values over this batch's (the Pylearn dataset proposal's
    /// `s.input = val`, through a view of the dataset's rows): `other` must have this batch's
    /// shape, and its values are valid for `S` since it is a batch of `S`.
    ///
    /// ```
    /// use batchspec::prelude::*;
    /// let mut y = Batch::<Labels<10>>::new(ndarray::array![1i64, 2, 3])?;
    /// y.assign(&Batch::new(ndarray::array![7i64, 8, 9])?)?;
    /// assert_eq!(y.array().to_vec(), vec![7, 8, 9]);
    /// assert!(y.assign(&Batch::new(ndarray::array![1i64])?).is_err()); // one sample for three
    /// # Ok::<(), batchspec::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`SpecError::Size`] naming the first axis whose size differs; nothing is written then.
    pub fn assign<R2: Data<Elem = S::Elem>>(
        &mut self,
        other: &Batch<S, R2>,
    ) -> Result<(), SpecError> {
        self.check_same_shape(other.data.shape())?;
        self.data.assign(&other.data);
        Ok(())
    }

    /// `shape` against this batch's: [`SpecError::Size`] naming the first axis that differs.
    fn check_same_shape(&self, shape: &[usize]) -> Result<(), SpecError> {
        if let Some(axis) = (0..shape.len()).find(|&a| shape[a] != self.data.shape()[a]) {
            let letters = <S::Layout as crate::types::axis::Layout>::LETTERS;
            return Err(SpecError::Size {
                space: S::describe(),
                axis,
                axis_name: letters.get(axis).map_or("axis", |&l| axis_name(l)),
                expected: self.data.shape()[axis],
                actual: shape[axis],
                shape: Shape(shape.to_vec()),
            });
        }
        Ok(())
    }

    /// `self op= other` in place (Pylearn's `d -= mean`): sample by sample when `other` has this
    /// batch's shape, or with `other`'s one sample applied to every sample. Those are the only
    /// two shapes taken (no other broadcast), every value is checked before any is written (an
    /// integer that would overflow or divide by zero is an error, never wrapped), and index
    /// batches are refused: labels are not quantities.
    ///
    /// ```
    /// use batchspec::prelude::*;
    /// use batchspec::types::Arith;
    ///
    /// let mut x = Batch::<Vector<2>>::new(ndarray::array![[1.0, 2.0], [3.0, 6.0]])?;
    /// let mean = Batch::<Vector<2>>::new(ndarray::array![[2.0, 4.0]])?;
    /// x.apply(Arith::Sub, &mean)?;
    /// assert_eq!(x.array(), &ndarray::array![[-1.0, -2.0], [1.0, 2.0]]);
    /// // Two samples against three: an error, nothing written.
    /// let other = Batch::<Vector<2>>::new(ndarray::Array2::ones((3, 2)))?;
    /// assert!(x.apply(Arith::Mul, &other).is_err());
    /// let mut bytes = Batch::<Vector<1, u8>>::new(ndarray::array![[200u8], [100]])?;
    /// assert!(bytes.apply_scalar(Arith::Add, 100).is_err()); // 300 does not fit a u8
    /// assert_eq!(bytes.array(), &ndarray::array![[200u8], [100]]);
    /// # Ok::<(), batchspec::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`SpecError::Broadcast`] for another shape; [`SpecError::Arithmetic`] for an index
    /// space, an integer overflow or an integer division by zero.
    pub fn apply<R2: Data<Elem = S::Elem>>(
        &mut self,
        op: Arith,
        other: &Batch<S, R2>,
    ) -> Result<(), SpecError> {
        let broadcast = self.check_apply(op, other)?;
        ndarray::Zip::from(&mut self.data)
            .and(&broadcast)
            .for_each(|a, &b| *a = a.checked_arith(op, b).unwrap_or(*a));
        Ok(())
    }

    /// What [`Batch::apply`] would refuse, checked without writing: `other` seen with this
    /// batch's shape.
    ///
    /// # Errors
    /// As [`Batch::apply`].
    pub fn check_apply<'o, R2: Data<Elem = S::Elem>>(
        &self,
        op: Arith,
        other: &'o Batch<S, R2>,
    ) -> Result<ArrayView<'o, S::Elem, S::Dim>, SpecError> {
        self.refuse_labels(op)?;
        let same = other.shape() == self.shape();
        let one = other.len() == 1 && {
            let mut a = self.shape().to_vec();
            let mut b = other.shape().to_vec();
            a.remove(S::BATCH_AXIS);
            b.remove(S::BATCH_AXIS);
            a == b
        };
        let broadcast = match (same, one) {
            (true, _) => other.data.view(),
            (false, true) => match other.data.broadcast(self.data.raw_dim()) {
                Some(view) => view,
                None => unreachable!("one sample of the same shape broadcasts across samples"),
            },
            (false, false) => {
                return Err(SpecError::Broadcast {
                    space: S::describe(),
                    op: op.symbol(),
                    shape: Shape(self.shape().to_vec()),
                    other: Box::new(Shape(other.shape().to_vec())),
                });
            }
        };
        if !<S::Elem as Element>::FLOAT {
            let bad = self
                .data
                .indexed_iter()
                .zip(broadcast.iter())
                .find(|&((_, &a), &b)| a.checked_arith(op, b).is_none());
            if let Some(((at, &a), &b)) = bad {
                return Err(arithmetic_error::<S>(op, at.into_dimension().slice(), a, b));
            }
        }
        Ok(broadcast)
    }

    /// `self op= value` for every value (Pylearn's `s *= val`), with the checks of
    /// [`Batch::apply`].
    ///
    /// # Errors
    /// As [`Batch::apply`].
    pub fn apply_scalar(&mut self, op: Arith, value: S::Elem) -> Result<(), SpecError> {
        self.refuse_labels(op)?;
        if !<S::Elem as Element>::FLOAT
            && let Some((at, &a)) = self
                .data
                .indexed_iter()
                .find(|(_, a)| a.checked_arith(op, value).is_none())
        {
            return Err(arithmetic_error::<S>(
                op,
                at.into_dimension().slice(),
                a,
                value,
            ));
        }
        self.data
            .mapv_inplace(|a| a.checked_arith(op, value).unwrap_or(a));
        Ok(())
    }

    fn refuse_labels(&self, op: Arith) -> Result<(), SpecError> {
        match S::MAX_LABELS {
            Some(m) => Err(SpecError::Arithmetic {
                space: S::describe(),
                op: op.symbol(),
                reason: format!(
                    "on labels in 0..{m}: they name classes, they are not quantities (write a label with `set_label`)"
                ),
            }),
            None => Ok(()),
        }
    }
}

/// The error of `a op b` at `at`, an integer result that does not exist.
fn arithmetic_error<S: Space>(op: Arith, at: &[usize], a: S::Elem, b: S::Elem) -> SpecError {
    let why = if op == Arith::Div && b == <S::Elem as Element>::ZERO {
        "divides by zero"
    } else {
        "does not fit the element type"
    };
    SpecError::Arithmetic {
        space: S::describe(),
        op: op.symbol(),
        reason: format!(
            "at {}: {a} {} {b} {why}; nothing was written",
            crate::types::error::Position(at.to_vec()),
            &op.symbol()[..1]
        ),
    }
}

impl<S: Space> Batch<S> {
    /// A batch of `batch` samples (and `time` steps, for sequence spaces; ignored otherwise)
    /// filled with zeros.
    pub fn zeros(batch: usize, time: usize) -> Self {
        let dim = crate::types::space::dim_of::<S>(batch, time);
        let data = ndarray::Array::from_elem(dim, <S::Elem as crate::types::elem::Element>::ZERO);
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
