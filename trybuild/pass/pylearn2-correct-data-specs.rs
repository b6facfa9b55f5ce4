// The correct data_specs of Pylearn2's document, as types.
use batchspec::prelude::*;
use batchspec::Specs;

type InputVec = Vector<3072>;
type InputConv = image![32, 32, 3; BCHW];
type Target = Vector<10>;

fn main() {
    assert_eq!(Specs::<InputVec, Features>::LEAVES, 1);
    assert_eq!(Specs::<InputConv, Features>::LEAVES, 1);
    assert_eq!(Specs::<Target, Targets>::LEAVES, 1);
    assert_eq!(Specs::<(InputVec, Target), (Features, Targets)>::LEAVES, 2);
    assert_eq!(Specs::<(Target, InputConv), (Targets, Features)>::LEAVES, 2);
    assert_eq!(
        Specs::<(InputVec, InputVec, InputVec, Target), (Features, Features, Features, Targets)>::LEAVES,
        4
    );
    assert_eq!(
        Specs::<((InputVec, InputVec, InputVec), Target), ((Features, Features, Features), Targets)>::LEAVES,
        4
    );
    assert_eq!(Specs::<Null, ()>::LEAVES, 0);
    let d = Specs::<(InputVec, (InputConv, Target)), (Features, (Features, Targets))>::describe(128);
    let shapes: Vec<_> = d.iter().map(|d| (d.source, d.dims().unwrap())).collect();
    assert_eq!(
        shapes,
        [("features", vec![128, 3072]), ("features", vec![128, 3, 32, 32]), ("targets", vec![128, 10])]
    );
}
