// Generics: a lifetime, a space parameter whose field takes its source from the field name, a
// written-out field, and `Null`.
#[derive(DataSpec)]
struct Generic<'a, S: Space> {
    x: BatchView<'a, S>,
    #[spec(source = "y")]
    y: Batch<Labels<3>>,
    penalty: Null,
}
