// A layout name no alias spells (`BHCW`, a typo of `BCHW`): `image!` refuses it, in one error
// that lists the named layouts and says how to write any other order (`layout!(bhcw)`). A bare
// name that resolves nowhere elsewhere in a field's type is `unknown-element-in-a-field`.
use batchspec::prelude::*;

#[derive(DataSpec)]
struct ModelInput {
    #[spec(source = "features")]
    x: Batch<image![32, 32, 3; BHCW, f32]>,
}

fn main() {}
