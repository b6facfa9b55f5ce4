// Two requests named `Request` in two modules, each with a field `mask`: the field's own type
// is then written with its module's path (`b::Request·mask`), as no single name is unique.
use batchspec::prelude::*;

#[derive(DataSpec)]
struct Dataset {
    #[spec(source = "features")]
    x: Batch<Vector<3>>,
}

mod a {
    use batchspec::prelude::*;

    #[derive(DataSpec)]
    pub struct Request {
        #[spec(source = "mask")]
        pub mask: Batch<Vector<3>>,
    }
}

mod b {
    use batchspec::prelude::*;

    #[derive(DataSpec)]
    pub struct Request {
        pub mask: Batch<Vector<3>>,
    }
}

const _: () = batchspec::mapping::assert_serves::<Dataset, b::Request>();

fn main() {}
