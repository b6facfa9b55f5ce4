//! The derive's output in a crate that denies the lints a careful user might deny: warnings,
//! `non_ascii_idents` (the derive names each field's own type `Request·mask`, at its own span),
//! `non_local_definitions`, `unreachable_pub` and `missing_docs`; with two requests of one name
//! in two modules, a field named as a type the struct uses, and raw identifiers. The batches are
//! checked against tf.data's `padded_batch`, worked by hand.
#![deny(
    warnings,
    non_ascii_idents,
    uncommon_codepoints,
    confusable_idents,
    mixed_script_confusables,
    non_local_definitions,
    unreachable_pub,
    missing_docs
)]

use batchspec::data::{Dataset, Provider};
use batchspec::iteration::Schedule;
use batchspec::prelude::*;
use batchspec::types::Ragged;
use ndarray::array;

/// The record: sequences of indices.
#[derive(DataSpec)]
pub struct Seqs {
    /// The sequences.
    #[spec(source = "x")]
    pub x: Ragged<IndexSeq<10>>,
}

/// A request and its lengths.
pub mod padded {
    use batchspec::prelude::*;

    /// Padded with 9, with the lengths.
    #[derive(DataSpec)]
    #[allow(non_snake_case)]
    pub struct Request {
        /// The padded sequences.
        #[spec(source = "x", pad = 9)]
        pub x: Batch<IndexSeq<10>>,
        /// Their lengths, in a field named as the type the struct uses for it.
        #[spec(lengths_of = "x")]
        pub Lengths: Batch<Lengths>,
    }
}

/// A request of the same name, elsewhere, nested.
pub mod masked {
    use batchspec::prelude::*;

    /// The padded sequences.
    #[derive(DataSpec)]
    pub struct Steps {
        /// Padded with 0.
        #[spec(source = "x")]
        pub x: Batch<IndexSeq<10>>,
    }

    /// Padded with 0, with the mask.
    #[derive(DataSpec)]
    pub struct Request {
        /// The padded sequences, in a struct of their own.
        pub steps: Steps,
        /// Which steps are data.
        #[spec(mask_of = "x")]
        pub mask: Batch<Mask>,
    }
}

/// A struct and a field named by raw identifiers.
#[derive(DataSpec)]
pub struct r#Plain {
    /// A field named by a keyword.
    #[spec(source = "features")]
    pub r#type: Batch<Vector<3>>,
}

const _: () = batchspec::mapping::assert_serves::<Plain, Plain>();

fn data() -> Dataset<Seqs> {
    Dataset::new(Seqs {
        x: Ragged::from_flat_samples([vec![1i64], vec![2, 2], vec![3, 3, 3]]).unwrap(),
    })
    .unwrap()
}

/// tf.data's `padded_batch(3, padding_values=9)` on `[1]`, `[2, 2]`, `[3, 3, 3]`, by hand:
/// `[[1, 9, 9], [2, 2, 9], [3, 3, 3]]`, lengths `[1, 2, 3]`; with 0 and the mask, as tf.data's
/// default padding.
#[test]
fn derived_requests_compile_and_serve_under_denied_lints() {
    let ds = data();
    let schedule = || Schedule::builder(3).batch_size(3).build().unwrap();
    let mut p = Provider::<Seqs, padded::Request>::new(&ds, schedule()).unwrap();
    let b = p.next_batch().unwrap().batch;
    assert_eq!(b.x.array(), &array![[1i64, 9, 9], [2, 2, 9], [3, 3, 3]]);
    assert_eq!(b.Lengths.array(), &array![1i64, 2, 3]);
    let mut p = Provider::<Seqs, masked::Request>::new(&ds, schedule()).unwrap();
    let b = p.next_batch().unwrap().batch;
    assert_eq!(
        b.steps.x.array(),
        &array![[1i64, 0, 0], [2, 2, 0], [3, 3, 3]]
    );
    assert_eq!(
        b.mask.array(),
        &array![[1.0f32, 0.0, 0.0], [1.0, 1.0, 0.0], [1.0, 1.0, 1.0]]
    );
}
