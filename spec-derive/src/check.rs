//! The checks the derive can make on what it sees: one function per rule.

use crate::ast::Container;
use crate::ctxt::Ctxt;

/// Runs every check.
pub fn check(cx: &Ctxt, cont: &Container<'_>) {
    for field in &cont.fields {
        check_field_type(cx, field.ty);
        check_image_totals(cx, field.ty);
    }
}

/// A field holds its data: references, pointers, slices, arrays, functions and trait objects
/// are not leaves of a spec.
fn check_field_type(cx: &Ctxt, ty: &syn::Type) {
    let what = match ty {
        syn::Type::Reference(_) => "a reference",
        syn::Type::Ptr(_) => "a raw pointer",
        syn::Type::Slice(_) => "a slice",
        syn::Type::Array(_) => "an array",
        syn::Type::FnPtr(_) => "a function pointer",
        syn::Type::TraitObject(_) => "a trait object",
        syn::Type::ImplTrait(_) => "an `impl Trait` type",
        syn::Type::Never(_) => "the never type",
        syn::Type::Infer(_) => "a placeholder `_`",
        syn::Type::Paren(p) => return check_field_type(cx, &p.elem),
        syn::Type::Group(g) => return check_field_type(cx, &g.elem),
        syn::Type::Tuple(t) => {
            for elem in &t.elems {
                check_field_type(cx, elem);
            }
            return;
        }
        syn::Type::Path(p) if p.qself.is_none() => {
            let Some(last) = p.path.segments.last() else {
                return;
            };
            let name = last.ident.to_string();
            // Types the standard library or ndarray name, which can never be a spec's field: said
            // here in words, once, rather than by a trait bound on every impl of the derive.
            let why = match name.as_str() {
                "String" | "str" | "char" | "bool" | "u8" | "u16" | "u32" | "u64" | "u128"
                | "usize" | "i8" | "i16" | "i32" | "i64" | "i128" | "isize" | "f32" | "f64" => {
                    "one value, not a batch: a field holds every sample, as a `Batch<S>` of a space (`Batch<Index<10>>` for a label per sample, `Batch<Vector<1>>` for a number)"
                }
                "Vec" | "VecDeque" | "Option" | "Box" | "Rc" | "Arc" | "HashMap" | "BTreeMap"
                | "HashSet" | "BTreeSet" => {
                    "a container of the standard library: a field is one `Batch<S>` holding every sample (or a nested spec, a tuple of them, or `Null`)"
                }
                "Array" | "Array1" | "Array2" | "Array3" | "Array4" | "Array5" | "Array6"
                | "ArrayD" | "ArrayView" | "ArrayViewMut" => {
                    "an ndarray array with no space: wrap it in a `Batch<S>`, which checks it against the space `S` (`Batch::<Vector<4>>::new(array)?`)"
                }
                _ => return,
            };
            cx.error_spanned_by(
                ty,
                format!(
                    "a field of a spec cannot be `{}`: {why}",
                    quote::quote!(#ty).to_string().replace(' ', "")
                ),
            );
            return;
        }
        _ => return,
    };
    cx.error_spanned_by(
        ty,
        format!(
            "a field of a spec cannot be {what}; use a `Batch<S>` (or `BatchView<'a, S>` to borrow), a nested spec, a tuple of them, or `Null`"
        ),
    );
}

/// The value of a generic argument written as an integer literal (`3072` or `{ 3072 }`), with the
/// argument for spans.
fn int_arg(arg: &syn::GenericArgument) -> Option<(u128, &syn::GenericArgument)> {
    let text = quote::quote!(#arg).to_string();
    let text = text
        .trim()
        .trim_start_matches('{')
        .trim_end_matches('}')
        .trim()
        .replace('_', "");
    let digits = text.trim_end_matches("usize");
    digits.parse::<u128>().ok().map(|v| (v, arg))
}

/// `Image<H, W, C, N, ..>` and `Volume<D, H, W, C, N, ..>` written with literals: `N` must be
/// the product of the sizes.
fn check_image_totals(cx: &Ctxt, ty: &syn::Type) {
    match ty {
        syn::Type::Path(p) => {
            for seg in &p.path.segments {
                if let syn::PathArguments::AngleBracketed(args) = &seg.arguments {
                    let list: Vec<_> = args.args.iter().collect();
                    // The spaces that carry their total, by the facts the core is built from.
                    for fact in &batchspec_facts::SIZED_SPACES {
                        check_total(cx, fact, &seg.ident, &list);
                    }
                    for arg in &args.args {
                        if let syn::GenericArgument::Type(t) = arg {
                            check_image_totals(cx, t);
                        }
                    }
                }
            }
        }
        syn::Type::Tuple(t) => t.elems.iter().for_each(|e| check_image_totals(cx, e)),
        syn::Type::Paren(p) => check_image_totals(cx, &p.elem),
        syn::Type::Group(g) => check_image_totals(cx, &g.elem),
        _ => {}
    }
}

/// `Name<s1, .., sk, total, ..>` with literal sizes: the total must be their product.
fn check_total(
    cx: &Ctxt,
    fact: &batchspec_facts::SizedSpaceFact,
    ident: &syn::Ident,
    list: &[&syn::GenericArgument],
) {
    let k = fact.sizes.len();
    if *ident != fact.name || list.len() <= k {
        return;
    }
    let Some(vals) = list[..=k]
        .iter()
        .map(|a| int_arg(a))
        .collect::<Option<Vec<_>>>()
    else {
        return;
    };
    let (n, lit) = vals[k];
    let sizes: Vec<String> = vals[..k].iter().map(|(v, _)| v.to_string()).collect();
    let product = vals[..k]
        .iter()
        .try_fold(1u128, |acc, (s, _)| acc.checked_mul(*s));
    if product != Some(n) {
        let shown = product.map_or("too large".to_string(), |p| p.to_string());
        cx.error_spanned_by(
            lit,
            format!(
                "the total of {} of {} is {shown}, not {n}; write `{shown}` or use `{}![{}]`",
                fact.noun,
                sizes.join("×"),
                fact.macro_name,
                sizes.join(", ")
            ),
        );
    }
}
