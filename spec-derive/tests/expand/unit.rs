// A struct without fields.
#[derive(DataSpec)]
struct Empty;
