//! The conversions as methods of a batch: [`Batch::format_as`] (new storage),
//! [`Batch::format_into`] (no allocation) and [`Batch::view_as`] (no copy), and [`Batch::gather_into`] (a gather fused with a conversion).

use super::error::FormatError;
use super::{Convert, FormatAs};
use crate::types::batch::{Batch, BatchView};
use crate::types::elem::Element;
use crate::types::error::{Shape, SpecError};
use crate::types::space::Space;
use ndarray::{Data, IxDyn};

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
        let mut out = ndarray::Array::from_elem(IxDyn(&shape), <T::Elem as Element>::ZERO)
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
        let v = super::chain::step_view(
            self.array_view().into_dyn(),
            <S as Convert<T>>::PLAN,
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
