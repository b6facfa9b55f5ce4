//! A column read into a leaf's values: its type checked against the space before any value is
//! read (one value per row, lists of the sample's length, nested lists of one shape, encoded
//! images), then every record batch's values converted exactly, nulls and refused non-finite
//! values named by their row.

use crate::load::NonFinite;
use crate::load::convert::{Scalar, convert_append, sample_fits};
use crate::load::error::{LoadReason, Place, TensorMismatch};
use crate::load::parquet::decode::{
    Budget, Fail, check_read, column_reader, decode_error, find_column,
};
use crate::load::parquet::direct::{self, Direct, Shape as Rows};
use crate::load::parquet::part::Part;
use crate::load::parquet::row_group::RowGroup;
use crate::load::parquet::tensor::{check_tensor, tensor_metadata};
use crate::types::axis::Layout as AxisLayout;
use crate::types::error::Shape;
use crate::types::space::Space;
use arrow_array::cast::AsArray;
use arrow_array::types::{
    ArrowPrimitiveType, Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type,
    UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{Array, ArrayRef, OffsetSizeTrait};
use arrow_schema::{DataType, Field};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

/// The steps that bring encoded images of any size to a field's (feature `images`).
#[cfg(all(feature = "parquet-image", feature = "images"))]
pub(super) type Steps = crate::load::images::ImageSteps;
#[cfg(not(all(feature = "parquet-image", feature = "images")))]
pub(super) type Steps = ();

/// How a column's values are taken: what to do with NaN and infinities, the steps of encoded
/// images, and the rows the reads after this one will append to the same values.
#[derive(Clone, Copy)]
pub(super) struct ColumnOptions<'a> {
    pub(super) non_finite: NonFinite,
    pub(super) steps: Option<&'a Steps>,
    /// The rows of the row groups read next into the same leaf (a window's), as the footers
    /// count them: reserved with this read's when they fit its budget too.
    pub(super) rows_after: usize,
}

/// Appends the values of `column` of the file of `builder` (or of its row group `group`),
/// converted to the element type of `S`, to `values`; the number of rows read.
pub(super) fn read_column<S: Space>(
    builder: ParquetRecordBatchReaderBuilder<Part>,
    column: &str,
    dims: &[usize],
    group: Option<RowGroup>,
    budget: &Budget,
    values: &mut Vec<S::Elem>,
    options: ColumnOptions<'_>,
) -> Result<usize, Fail> {
    let ColumnOptions {
        non_finite,
        steps,
        rows_after,
    } = options;
    let at = |row: Option<u64>| Place::Column {
        name: column.to_owned(),
        row,
    };
    let (index, field) = find_column(builder.schema(), column)?;
    let per: usize = dims.iter().product();
    let layout = check_field::<S>(&field, dims, per, steps.is_some()).map_err(|r| (at(None), r))?;
    let elem = core::mem::size_of::<S::Elem>() as u64;
    check_read(
        &builder,
        index,
        group,
        budget,
        Some((per as u64).saturating_mul(elem)),
        Some(per as u64),
        elem,
    )?;
    // The rows of the row groups (checked against the budget above), not the footer's own
    // count, which nothing holds to them.
    let group_rows: usize = builder
        .metadata()
        .row_groups()
        .iter()
        .map(|g| usize::try_from(g.num_rows()).unwrap_or(0))
        .fold(0, usize::saturating_add);
    // Decoded a megabyte or so at a time: the decoder's buffers then come from memory the
    // allocator keeps, where record batches of a whole row group were mapped (and page-faulted)
    // afresh each time (a third slower, measured).
    let decode_rows = ((1 << 20) / (per.max(1) * 4)).clamp(1, 8192);
    // The direct path, 64 KiB of values at a time: the values (and, when a chunk is read with
    // its levels, the two levels a value decoded beside them) stay in the core's L2 until they
    // are checked and written (a one-thread stream 5 % faster than a megabyte at a time, when
    // every chunk was read with its levels, measured).
    let direct_rows = ((64 << 10) / (per.max(1) * 4)).clamp(1, 8192);
    // One allocation for the rows to come (the footer says how many): growing the vector batch
    // by batch copied and page-faulted the data again at every doubling. The first row group of
    // a window reserves for the window's next ones too, when their rows fit the budget checked
    // above: reserving a row group at a time copied and faulted the window again at each
    // (windows of 4 row groups ran at half the speed of windows of 1, measured).
    let expected = group.map_or(group_rows, |g| g.rows);
    let window = expected.saturating_add(rows_after);
    let fits = (window as u64)
        .saturating_mul(per as u64)
        .saturating_mul(elem)
        <= budget.bytes;
    values.reserve(if fits { window } else { expected }.saturating_mul(per));
    // Memory the reservation has just mapped is put on 2 MB pages before the decoder first
    // writes to it: a window of a row group is tens of megabytes, and faulting it in 4 KB pages
    // made a fresh stream's epoch 15 % slower in the Parquet bench (memory kept from a window
    // before is already mapped; the advice leaves it as it is).
    let reserved = values.spare_capacity_mut();
    if core::mem::size_of_val(reserved) >= crate::data::dataset::HUGE_PAGE_LEAF {
        batchspec_kernel::advise_huge_pages(reserved, false);
    }
    // Numbers already of the leaf's type, one per row or in flat lists: decoded straight into
    // `values`; anything else (or a column that does not read cleanly) through Arrow below.
    let direct = match &layout {
        Layout::Scalar(t) => Some((Rows::Scalar, t)),
        Layout::List(t) => Some((Rows::List, t)),
        _ => None,
    };
    // Rows are counted from the start of the file, as errors name them.
    let first = group.map_or(0, |g| g.first_row);
    if let Some((shape, t)) = direct
        && steps.is_none()
    {
        let how = Direct {
            column,
            shape,
            values: t,
            per,
            group,
            rows_at_once: direct_rows,
            non_finite,
        };
        match direct::read::<S>(&builder, &budget.part, &how, values) {
            Ok(Some(rows)) => return Ok(rows),
            Ok(None) => {}
            Err((row, reason)) => return Err((at(Some((first + row) as u64)), reason)),
        }
    }
    let reader = column_reader(builder, &budget.part, index, group, decode_rows)?;
    let mut rows = 0usize;
    for batch in reader {
        let batch = batch.map_err(|e| (at(Some((first + rows) as u64)), decode_error(e)))?;
        let array = batch.column(0);
        let n = array.len();
        let before = values.len();
        batch_values::<S>(array, &layout, per, dims, values, steps)
            .and_then(|()| {
                non_finite
                    .first_refused(&values[before..])
                    .map_or(Ok(()), |(i, reason)| Err((i / per.max(1), reason)))
            })
            .map_err(|(row, reason)| (at(Some((first + rows + row) as u64)), reason))?;
        rows += n;
    }
    Ok(rows)
}

/// How a column's rows hold their values.
enum Layout {
    /// One value per row.
    Scalar(DataType),
    /// A list (fixed-size, 32- or 64-bit offsets) of numbers whose rows must all have the
    /// sample's length.
    List(DataType),
    /// Lists of lists (Hugging Face's `Array2D`..`Array5D`), of the same shape in every row;
    /// the leaf type is `leaf`.
    Nested { leaf: DataType },
    /// Encoded PNG or JPEG files in the `bytes` field (child `field`) of a struct (Hugging
    /// Face's `Image`), decoded with the feature `parquet-image`.
    #[cfg_attr(not(feature = "parquet-image"), allow(dead_code))]
    Encoded { field: usize },
}

/// The child holding encoded bytes of a struct column as Hugging Face writes its `Image`
/// feature (`{bytes: binary, path: string}`).
fn encoded_bytes(t: &DataType) -> Option<usize> {
    let DataType::Struct(fields) = t else {
        return None;
    };
    fields.iter().position(|f| {
        f.name() == "bytes" && matches!(f.data_type(), DataType::Binary | DataType::LargeBinary)
    })
}

/// Why a column of encoded images cannot fill `S` (sizes and channels are checked per image).
fn encoded_refusal<S: Space>(dims: &[usize], resized: bool) -> Option<&'static str> {
    if !cfg!(feature = "parquet-image") {
        return Some(
            "a column of encoded images (PNG/JPEG, as Hugging Face's `Image` stores them) is decoded with the `parquet-image` feature of batchspec; turn it on",
        );
    }
    if resized {
        // The image steps write any image layout (and check the space when they read).
        return None;
    }
    let letters: Vec<char> = <S::Layout as AxisLayout>::LETTERS
        .iter()
        .copied()
        .filter(|&c| c != 'b')
        .collect();
    (letters != ['h', 'w', 'c'] || dims.len() != 3).then_some(
        "encoded images decode to height × width × channels: ask for an image in layout bhwc (`image![H, W, C; BHWC, u8]`) and format it to another layout",
    )
}

/// The numbers at the bottom of a (possibly nested) list type, if it is one.
pub(super) fn list_leaf(t: &DataType) -> Option<&DataType> {
    match t {
        t if numeric(t) => Some(t),
        DataType::List(c) | DataType::LargeList(c) | DataType::FixedSizeList(c, _) => {
            list_leaf(c.data_type())
        }
        _ => None,
    }
}

pub(super) fn numeric(t: &DataType) -> bool {
    matches!(
        t,
        DataType::Int8
            | DataType::Int16
            | DataType::Int32
            | DataType::Int64
            | DataType::UInt8
            | DataType::UInt16
            | DataType::UInt32
            | DataType::UInt64
            | DataType::Float32
            | DataType::Float64
    )
}

/// Checks the column's type (and tensor metadata) against the space, before any value is read.
fn check_field<S: Space>(
    field: &Field,
    dims: &[usize],
    per: usize,
    resized: bool,
) -> Result<Layout, LoadReason> {
    let wrong = |expected| LoadReason::ColumnType {
        found: field.data_type().to_string(),
        space: S::describe(),
        expected,
    };
    const ACCEPTED: &str = "an integer or float column, a FixedSizeList, List or LargeList (nested or not) of integers or floats, or a struct of encoded image `bytes`";
    let layout = match field.data_type() {
        t if numeric(t) => Layout::Scalar(t.clone()),
        DataType::FixedSizeList(child, _) | DataType::List(child) | DataType::LargeList(child)
            if numeric(child.data_type()) =>
        {
            Layout::List(child.data_type().clone())
        }
        t @ (DataType::List(_) | DataType::LargeList(_) | DataType::FixedSizeList(..)) => {
            match list_leaf(t) {
                Some(leaf) => Layout::Nested { leaf: leaf.clone() },
                None => return Err(wrong(ACCEPTED)),
            }
        }
        t => match encoded_bytes(t) {
            Some(field) => match encoded_refusal::<S>(dims, resized) {
                None => Layout::Encoded { field },
                Some(why) => return Err(wrong(why)),
            },
            None => return Err(wrong(ACCEPTED)),
        },
    };
    let length = |found| LoadReason::RowLength {
        found,
        expected: per,
        space: S::describe(),
    };
    match (&layout, field.data_type()) {
        (Layout::Scalar(_), _) if !sample_fits(&[], dims) => return Err(length(1)),
        (Layout::List(_), DataType::FixedSizeList(_, n)) => {
            let n = usize::try_from(*n).unwrap_or(0);
            if n != per {
                return Err(length(n));
            }
        }
        _ => {}
    }
    if let Some(tensor) = tensor_metadata(field) {
        check_tensor::<S>(&tensor, dims)?;
    }
    Ok(layout)
}

/// Appends the values of one record batch's column, converted, to `out`; an error carries the
/// row in the batch.
fn batch_values<S: Space>(
    array: &ArrayRef,
    layout: &Layout,
    per: usize,
    dims: &[usize],
    out: &mut Vec<S::Elem>,
    steps: Option<&Steps>,
) -> Result<(), (usize, LoadReason)> {
    if let Some(row) = (0..array.len()).find(|&i| array.is_null(i)) {
        return Err((row, LoadReason::Null));
    }
    if let Layout::Encoded { field } = layout {
        return encoded_values::<S>(array, *field, dims, out, steps);
    }
    let (values, start, count, element) = match layout {
        Layout::Scalar(t) => (array.clone(), 0, array.len(), t),
        Layout::List(t) => {
            let (child, offsets) = list_offsets(array);
            if let Some(row) = offsets.windows(2).position(|w| w[1] - w[0] != per) {
                return Err((
                    row,
                    LoadReason::RowLength {
                        found: offsets[row + 1] - offsets[row],
                        expected: per,
                        space: S::describe(),
                    },
                ));
            }
            let start = offsets.first().copied().unwrap_or(0);
            let end = offsets.last().copied().unwrap_or(0);
            (child, start, end - start, t)
        }
        Layout::Encoded { .. } => unreachable!("encoded images are decoded above"),
        Layout::Nested { leaf } => {
            let (values, offsets, shape) = flatten_nested(array, S::describe)?;
            if !array.is_empty() && !sample_fits(&shape, dims) {
                return Err((
                    0,
                    LoadReason::Tensor(Box::new(TensorMismatch {
                        shape: Shape(shape),
                        names: None,
                        space: S::describe(),
                        hint: " (nested lists are read in row-major order; the space's sizes must be theirs, in its memory order)".into(),
                    })),
                ));
            }
            let start = offsets.first().copied().unwrap_or(0);
            let end = offsets.last().copied().unwrap_or(0);
            (values, start, end - start, leaf)
        }
    };
    let part = values.slice(start, count);
    if part.null_count() > 0
        && let Some(i) = (0..part.len()).find(|&i| part.is_null(i))
    {
        return Err((i / per.max(1), LoadReason::Null));
    }
    macro_rules! convert {
        ($($dt:ident => $ty:ident),*) => {
            match element {
                $(DataType::$dt => convert_part::<S, $ty>(&part, per, out),)*
                _ => unreachable!("the column's type was checked when the file opened"),
            }
        };
    }
    convert!(
        Int8 => Int8Type, Int16 => Int16Type, Int32 => Int32Type, Int64 => Int64Type,
        UInt8 => UInt8Type, UInt16 => UInt16Type, UInt32 => UInt32Type, UInt64 => UInt64Type,
        Float32 => Float32Type, Float64 => Float64Type
    )
}

/// Decodes the images of a struct column's `bytes` child (Hugging Face's `Image`) and appends
/// their pixels to `out`; an error carries the row.
#[cfg(feature = "parquet-image")]
fn encoded_values<S: Space>(
    array: &ArrayRef,
    field: usize,
    dims: &[usize],
    out: &mut Vec<S::Elem>,
    steps: Option<&Steps>,
) -> Result<(), (usize, LoadReason)> {
    fn each<O: OffsetSizeTrait>(
        bytes: &ArrayRef,
        mut visit: impl FnMut(usize, &[u8]) -> Result<(), (usize, LoadReason)>,
    ) -> Result<(), (usize, LoadReason)> {
        let binary = bytes.as_binary::<O>();
        (0..binary.len()).try_for_each(|row| visit(row, binary.value(row)))
    }
    let bytes = array.as_struct().column(field);
    if let Some(row) = (0..bytes.len()).find(|&i| bytes.is_null(i)) {
        return Err((
            row,
            LoadReason::Decode {
                message: "the image has no bytes (a path alone, to a file this reader does not open): save the dataset with its images embedded".into(),
            },
        ));
    }
    out.reserve(array.len().saturating_mul(dims.iter().product()));
    #[cfg(feature = "images")]
    if let Some(steps) = steps {
        // Any size, brought to the field's by the steps (the same every time: they draw
        // nothing), written in the field's layout.
        let mut image = crate::load::images::StepsImage::new::<S>(steps).map_err(|r| (0, r))?;
        let decode = |row: usize, data: &[u8]| image.append::<S>(data, out).map_err(|r| (row, r));
        return match bytes.data_type() {
            DataType::LargeBinary => each::<i64>(bytes, decode),
            _ => each::<i32>(bytes, decode),
        };
    }
    let _ = steps;
    let decode = |row: usize, data: &[u8]| {
        crate::load::parquet::image::decode_into::<S>(data, dims, out).map_err(|r| (row, r))
    };
    match bytes.data_type() {
        DataType::LargeBinary => each::<i64>(bytes, decode),
        _ => each::<i32>(bytes, decode),
    }
}

#[cfg(not(feature = "parquet-image"))]
fn encoded_values<S: Space>(
    _: &ArrayRef,
    _: usize,
    _: &[usize],
    _: &mut Vec<S::Elem>,
    _: Option<&Steps>,
) -> Result<(), (usize, LoadReason)> {
    unreachable!("encoded image columns are refused when the file opens without `parquet-image`")
}

/// The leaf values of a column of nested lists, each row's range of them, and a row's shape.
type Flattened = (ArrayRef, Vec<usize>, Vec<usize>);

/// For a column of (nested) lists of numbers: the leaf values, the range of each row's leaf
/// values (`len + 1` offsets), and the shape of a row (its length at each level), after checking
/// that every row has that shape and no level holds a null. An error carries the row.
pub(super) fn flatten_nested(
    array: &ArrayRef,
    space: fn() -> String,
) -> Result<Flattened, (usize, LoadReason)> {
    if numeric(array.data_type()) {
        return Ok((array.clone(), (0..=array.len()).collect(), Vec::new()));
    }
    if let Some(row) = (0..array.len()).find(|&i| array.is_null(i)) {
        return Err((row, LoadReason::Null));
    }
    let (child, offsets) = list_offsets(array);
    // Every row of this level has the length of the first.
    let first_len = offsets.windows(2).next().map_or(0, |w| w[1] - w[0]);
    if let Some(row) = offsets.windows(2).position(|w| w[1] - w[0] != first_len) {
        return Err((
            row,
            LoadReason::RowLength {
                found: offsets[row + 1] - offsets[row],
                expected: first_len,
                space: space(),
            },
        ));
    }
    let (leaf, inner, inner_shape) = flatten_nested(&child, space).map_err(|(j, reason)| {
        // The row of this level that holds element `j` of the level below.
        let row = offsets.partition_point(|&o| o <= j).saturating_sub(1);
        (row, reason)
    })?;
    let leaf_offsets = offsets
        .iter()
        .map(|&o| inner.get(o).copied().unwrap_or(0))
        .collect();
    let mut shape = vec![first_len];
    shape.extend(inner_shape);
    Ok((leaf, leaf_offsets, shape))
}

/// The values of a list column (fixed-size, 32- or 64-bit offsets) and the range of each row's
/// values in them (`len + 1` offsets).
pub(super) fn list_offsets(array: &ArrayRef) -> (ArrayRef, Vec<usize>) {
    fn offsets<O: OffsetSizeTrait>(array: &ArrayRef) -> (ArrayRef, Vec<usize>) {
        let list = array.as_list::<O>();
        let o = list.value_offsets().iter().map(|o| o.as_usize()).collect();
        (list.values().clone(), o)
    }
    match array.data_type() {
        DataType::FixedSizeList(_, n) => {
            let list = array.as_fixed_size_list();
            let n = usize::try_from(*n).unwrap_or(0);
            let first = if list.is_empty() {
                0
            } else {
                list.value_offset_at(0)
            };
            (
                list.values().clone(),
                (0..=list.len()).map(|r| first + r * n).collect(),
            )
        }
        DataType::List(_) => offsets::<i32>(array),
        DataType::LargeList(_) => offsets::<i64>(array),
        _ => unreachable!("the column's type was checked when the file opened"),
    }
}

/// Appends the values of `part` (a slice of a primitive array), converted, to `out`: straight
/// from Arrow's buffer, with no vector in between.
pub(super) fn convert_part<S: Space, A: ArrowPrimitiveType>(
    part: &ArrayRef,
    per: usize,
    out: &mut Vec<S::Elem>,
) -> Result<(), (usize, LoadReason)>
where
    A::Native: Scalar,
{
    match convert_append::<S, A::Native>(part.as_primitive::<A>().values(), out) {
        Ok(Ok(())) => Ok(()),
        Ok(Err((i, reason))) => Err((i / per.max(1), reason)),
        Err(reason) => Err((0, reason)),
    }
}
