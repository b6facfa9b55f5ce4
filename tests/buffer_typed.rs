//! Buffer layouts through the spec types: templates from spaces, typed views of arena leaves.

use batchspec::buffer::{BufferManager, LayoutSpec, Template};
use batchspec::prelude::*;

#[test]
fn templates_come_from_the_spaces() {
    assert_eq!(Vector::<7>::template().to_string(), "(B, 7)");
    assert_eq!(
        <image![4, 4, 3; BHWC]>::template().to_string(),
        "(B, 4, 4, 3)"
    );
    assert_eq!(VectorSeq::<5, TBF>::template().to_string(), "(T, B, 5)");

    let mut spec = LayoutSpec::new();
    spec.layer("Input")
        .output_of::<VectorSeq<2, TBF>>("default");
    spec.layer("A")
        .input("default", ["Input"])
        .output_of::<VectorSeq<3, TBF>>("default");
    let mut manager = BufferManager::<f32>::new(spec.build().unwrap()).unwrap();
    manager.resize(4, 2).unwrap();
    let a = manager
        .batch_view::<VectorSeq<3, TBF>>("A.outputs.default")
        .unwrap();
    assert_eq!(a.shape(), [4, 2, 3]);
    assert_eq!(a.time_len(), Some(4));
    // The leaf is 3 wide, not 5: a typed view of the wrong space is an error, not a wrong view.
    assert!(
        manager
            .batch_view::<VectorSeq<5, TBF>>("A.outputs.default")
            .is_err()
    );
}
