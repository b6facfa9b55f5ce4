//! Text columns (`Utf8`, `LargeUtf8`, and `Binary`/`LargeBinary` holding UTF-8), read row group
//! by row group into [`Texts`]: the documents of a text source, every value checked as UTF-8 and
//! named by its row when it is not, a null refused or skipped by policy.

use crate::load::error::{LoadError, LoadReason, Place};
use crate::load::parquet::decode::{
    Budget, Fail, check_read, column_reader, decode_error, find_column, guarded,
};
use crate::load::parquet::files::ParquetFiles;
use crate::load::parquet::part::Part;
use crate::load::parquet::row_group::RowGroup;
use arrow_array::{Array, BinaryArray, LargeBinaryArray, LargeStringArray, StringArray};
use arrow_schema::DataType;
use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ParquetRecordBatchReaderBuilder};

/// What a text reader does with a missing value (a null in a Parquet column, a `null` or a
/// missing key in a JSON line).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TextNulls {
    /// An error naming the file, the row and the column (the default).
    #[default]
    Refuse,
    /// Left out: the document is not there (its row number is kept by the others).
    Skip,
}

/// Documents of a text source, in the order read: one string each, with the row (or line) of
/// its file it came from, counted from 0. Built by a reader ([`ParquetFiles::read_texts`], or a
/// reader of another format through [`Texts::push`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Texts {
    bytes: String,
    ends: Vec<usize>,
    rows: Vec<u64>,
}

impl Texts {
    /// No documents.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends a document and the row it came from.
    pub fn push(&mut self, text: &str, row: u64) {
        self.bytes.push_str(text);
        self.ends.push(self.bytes.len());
        self.rows.push(row);
    }

    /// The number of documents.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Document `i`, or `None` past the end.
    pub fn get(&self, i: usize) -> Option<&str> {
        let end = *self.ends.get(i)?;
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        self.bytes.get(start..end)
    }

    /// The row (or line) of its file document `i` came from, from 0.
    pub fn row(&self, i: usize) -> Option<u64> {
        self.rows.get(i).copied()
    }

    /// The documents in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        (0..self.len()).map(|i| self.get(i).unwrap_or_default())
    }

    /// The bytes of all documents together.
    pub fn total_bytes(&self) -> usize {
        self.bytes.len()
    }
}

impl ParquetFiles {
    /// The documents of the text column `column` in row group `group` of these files, for the
    /// text source `source` (the name errors give). `Utf8` and `LargeUtf8` columns (as pyarrow,
    /// Spark, Ray and Hugging Face `datasets` write strings), and `Binary`/`LargeBinary` ones
    /// holding UTF-8, are read; every value is checked as UTF-8, and an invalid one is an error
    /// naming its file, row and column. Nulls follow
    /// `nulls`. The read is checked against the files' memory budget
    /// ([`ParquetFiles::memory_budget`]) and its page headers against the file before anything
    /// is decoded, as every read of these files is.
    ///
    /// # Errors
    /// [`LoadError::File`] naming the file, the column and the row: no such column, a column of
    /// another type, a null under [`TextNulls::Refuse`], a value that is not UTF-8, a damaged
    /// file.
    pub fn read_texts(
        &self,
        group: RowGroup,
        column: &str,
        source: &'static str,
        nulls: TextNulls,
    ) -> Result<Texts, LoadError> {
        let file = self
            .files
            .get(group.file)
            .cloned()
            .unwrap_or_else(|| self.path.clone());
        let error = |(place, reason): Fail| LoadError::File {
            file: file.clone(),
            place,
            source_name: source,
            reason: Box::new(reason),
        };
        let (builder, part) = self
            .builder(group.file)
            .map_err(|reason| error((Place::File, reason)))?;
        let len = part.size().map_err(|e| error((Place::File, e.into())))?;
        let budget = Budget {
            part,
            bytes: self.budget_of(len),
        };
        let mut texts = Texts::new();
        guarded(|| read_text_column(builder, column, group, &budget, nulls, &mut texts))
            .map_err(error)?;
        Ok(texts)
    }
}

/// Reads the rows of `group` of the text column `column` into `texts`.
fn read_text_column(
    builder: ParquetRecordBatchReaderBuilder<Part>,
    column: &str,
    group: RowGroup,
    budget: &Budget,
    nulls: TextNulls,
    texts: &mut Texts,
) -> Result<(), Fail> {
    let at = |row: Option<u64>| Place::Column {
        name: column.to_owned(),
        row,
    };
    let (index, field) = find_column(builder.schema(), column)?;
    let kind = field.data_type().clone();
    if !matches!(
        kind,
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Binary | DataType::LargeBinary
    ) {
        return Err((
            at(None),
            LoadReason::ColumnType {
                found: kind.to_string(),
                space: "text".to_owned(),
                expected: "a Utf8 or LargeUtf8 column (or Binary holding UTF-8)",
            },
        ));
    }
    // A row takes an offset at least; its bytes are bounded by the budget page by page.
    check_read(
        &builder,
        index,
        Some(group),
        budget,
        Some(core::mem::size_of::<usize>() as u64),
        None,
        1,
    )?;
    let metadata = ArrowReaderMetadata::try_new(builder.metadata().clone(), Default::default())
        .map_err(|e| (at(None), decode_error(e)))?;
    let reader = column_reader(builder, &budget.part, index, Some(group), 8192)?;
    let mut row = group.first_row as u64;
    for batch in reader {
        let batch = match batch {
            Ok(batch) => batch,
            // The decoder checks the UTF-8 of a string column itself, a batch at a time: the
            // row is found by reading the row group again a row at a time up to it.
            Err(e) if e.to_string().contains("non UTF-8") => {
                let again = ParquetRecordBatchReaderBuilder::new_with_metadata(
                    budget.part.clone(),
                    metadata.clone(),
                );
                let rows = column_reader(again, &budget.part, index, Some(group), 1)?
                    .take_while(Result::is_ok)
                    .count();
                return Err((
                    at(Some(group.first_row as u64 + rows as u64)),
                    LoadReason::Utf8 {
                        message: "its bytes are not valid UTF-8".to_owned(),
                    },
                ));
            }
            Err(e) => return Err((at(Some(row)), decode_error(e))),
        };
        let array = batch.column(0);
        let value = |i: usize| -> Option<&[u8]> {
            if array.is_null(i) {
                return None;
            }
            let any = array.as_any();
            if let Some(a) = any.downcast_ref::<StringArray>() {
                Some(a.value(i).as_bytes())
            } else if let Some(a) = any.downcast_ref::<LargeStringArray>() {
                Some(a.value(i).as_bytes())
            } else if let Some(a) = any.downcast_ref::<BinaryArray>() {
                Some(a.value(i))
            } else {
                any.downcast_ref::<LargeBinaryArray>().map(|a| a.value(i))
            }
        };
        for i in 0..array.len() {
            let here = row + i as u64;
            match value(i) {
                None if nulls == TextNulls::Skip => {}
                None => return Err((at(Some(here)), LoadReason::Null)),
                Some(b) => match core::str::from_utf8(b) {
                    Ok(text) => texts.push(text, here),
                    Err(e) => {
                        return Err((
                            at(Some(here)),
                            LoadReason::Utf8 {
                                message: format!(
                                    "its bytes are valid up to byte {} only",
                                    e.valid_up_to()
                                ),
                            },
                        ));
                    }
                },
            }
        }
        row += array.len() as u64;
    }
    Ok(())
}
