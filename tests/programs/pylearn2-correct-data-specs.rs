// The correct data_specs of Pylearn2's document, as types.
use batchspec::prelude::*;
use batchspec::mapping;

type InputVec = Vector<3072>;
type InputConv = image![32, 32, 3; BCHW];
type Target = Vector<10>;

fn main() {
    assert_eq!(mapping::leaves::<InputVec, Features>(), 1);
    assert_eq!(mapping::leaves::<InputConv, Features>(), 1);
    assert_eq!(mapping::leaves::<Target, Targets>(), 1);
    assert_eq!(mapping::leaves::<(InputVec, Target), (Features, Targets)>(), 2);
    assert_eq!(mapping::leaves::<(Target, InputConv), (Targets, Features)>(), 2);
    assert_eq!(
        mapping::leaves::<(InputVec, InputVec, InputVec, Target), (Features, Features, Features, Targets)>(),
        4
    );
    assert_eq!(
        mapping::leaves::<((InputVec, InputVec, InputVec), Target), ((Features, Features, Features), Targets)>(),
        4
    );
    assert_eq!(mapping::leaves::<Null, ()>(), 0);
    let d = mapping::describe::<(InputVec, (InputConv, Target)), (Features, (Features, Targets))>(128);
    let shapes: Vec<_> = d.iter().map(|d| (d.source, d.dims().unwrap())).collect();
    assert_eq!(
        shapes,
        [("features", vec![128, 3072]), ("features", vec![128, 3, 32, 32]), ("targets", vec![128, 10])]
    );
}
