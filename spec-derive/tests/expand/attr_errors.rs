// Every mistake the attributes' parser reports, together, beside the stubs: on the struct an
// unknown key, `source`, and a crate that is not a path; on the fields repeated keys, values of
// the wrong form, and keys that exclude each other.
#[derive(DataSpec)]
#[spec(krate = "x", source = "x", crate = "not a path")]
struct Mistakes {
    #[spec(source = "a", source = "b", pad = x, pad_to = 0, truncate = true)]
    a: Batch<IndexSeq<5>>,
    #[spec(source = 3, pad_to = "8", mixed_with = 5)]
    b: Batch<Vector<2>>,
    #[spec(lengths_of = "a", mask_of = "a")]
    c: Batch<Lengths>,
    #[spec(lengths_of = "a", source = "a")]
    d: Batch<Lengths>,
    #[spec(mask_of = "a", pad = 0)]
    e: Batch<Mask>,
    #[spec(source = "i", augment = Train, pad = 0)]
    f: Batch<Image<2, 2, 1, 4>>,
    #[spec(source = "i", augment = Train, mixed_with = "i")]
    g: Batch<Image<2, 2, 1, 4>>,
    #[spec(source = "")]
    h: Batch<Vector<1>>,
    #[spec(source = "a name longer than thirty-two chars")]
    i: Batch<Vector<1>>,
    #[spec(lengths_of = 3)]
    j: Batch<Lengths>,
    #[spec(augment = 1)]
    k: Batch<Image<2, 2, 1, 4>>,
    #[spec(pad_too = 1)]
    l: Batch<Vector<1>>,
}
