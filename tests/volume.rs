//! Rank 5 and 6: volumes and volume sequences in any order of their axes.

use batchspec::prelude::*;
use batchspec::types::{BCDHW, BTDHWC};
use ndarray::{Array, ArrayD, IxDyn};

fn reference_permute(data: &ArrayD<f32>, perm: &[usize]) -> ArrayD<f32> {
    let shape: Vec<usize> = perm.iter().map(|&p| data.shape()[p]).collect();
    let mut out = ArrayD::zeros(IxDyn(&shape));
    for (idx, v) in out.indexed_iter_mut() {
        let mut src = vec![0; perm.len()];
        for (k, &p) in perm.iter().enumerate() {
            src[p] = idx[k];
        }
        *v = data[IxDyn(&src)];
    }
    out
}

#[test]
fn volumes_change_layout_and_flatten() {
    let data = Array::from_shape_fn((3, 2, 5, 4, 3), |(b, d, h, w, c)| {
        (b * 1000 + d * 100 + h * 10 + w * 3 + c) as f32
    });
    let v = Batch::<volume![2, 5, 4, 3]>::new(data.clone()).unwrap();
    let planar = v.format_as::<volume![2, 5, 4, 3; BCDHW]>();
    assert_eq!(planar.shape(), [3, 3, 2, 5, 4]);
    assert_eq!(
        planar.array().clone().into_dyn(),
        reference_permute(&data.clone().into_dyn(), &[0, 4, 1, 2, 3])
    );
    let flat = planar.format_as::<Vector<120>>();
    assert_eq!(
        flat.array(),
        &data.clone().into_shape_with_order((3, 120)).unwrap()
    );
    assert_eq!(flat.format_as::<volume![2, 5, 4, 3; BCDHW]>(), planar);
    // Every one of the 120 layouts is a layout: here one with the batch axis in the middle.
    let odd = v.format_as::<volume![2, 5, 4, 3; layout!(hbcwd)]>();
    assert_eq!(
        odd.array().clone().into_dyn(),
        reference_permute(&data.into_dyn(), &[2, 0, 4, 3, 1])
    );
    assert_eq!(odd.format_as::<volume![2, 5, 4, 3]>(), v);
}

#[test]
fn volume_sequences_are_rank_six() {
    let data = Array::from_shape_fn(IxDyn(&[2, 3, 2, 3, 2, 3]), |i| {
        (i[0] * 1000 + i[1] * 200 + i[2] * 30 + i[3] * 7 + i[4] * 3 + i[5]) as f32
    });
    let s = Batch::<VolumeSeq<2, 3, 2, 3, BTDHWC>>::from_dyn(data.clone()).unwrap();
    assert_eq!(s.time_len(), Some(3));
    let t = s.format_as::<VolumeSeq<2, 3, 2, 3, layout!(tbcdhw)>>();
    assert_eq!(
        t.array().clone().into_dyn(),
        reference_permute(&data, &[1, 0, 5, 2, 3, 4])
    );
    assert_eq!(t.format_as::<VolumeSeq<2, 3, 2, 3, BTDHWC>>(), s);
}
