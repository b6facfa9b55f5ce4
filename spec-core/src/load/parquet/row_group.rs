//! A row group of Parquet files: the unit of reading, of read-ahead windows and of sharding.

/// One row group of one of the files of a [`ParquetFiles`](crate::load::ParquetFiles): the unit of reading and of sharding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RowGroup {
    /// The file, as an index into [`ParquetFiles::files`](crate::load::ParquetFiles::files).
    pub file: usize,
    /// The row group's index in its file.
    pub index: usize,
    /// The row of the file the row group starts at.
    pub first_row: usize,
    /// Its number of rows.
    pub rows: usize,
}
