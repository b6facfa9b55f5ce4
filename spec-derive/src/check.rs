//! The checks the derive can make on what it sees: one function per rule. [`check`] runs the
//! rules whose errors replace the impls (recorded in the context, reported beside stubs); the
//! predicates `has_bad_type_macro` and `has_foreign_layout` pick a type whose error the struct
//! itself reports; the rules at the end give errors that the generated code carries beside the
//! impls, written where the generators meet the field; and [`escape`] readies the words of the
//! per-field messages that rustc reports through `#[diagnostic::on_unimplemented]`.

use crate::ast::{Container, Field, Kind, kind, peel};
use crate::ctxt::Ctxt;
use proc_macro2::Span;

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

/// The spaces that take a layout: the position of the layout among their generic arguments and
/// its axes (upper case), as the core defines them.
const LAYOUT_SPACES: [(&str, usize, &str); 6] = [
    ("Image", 4, "BHWC"),
    ("Window", 3, "BWC"),
    ("VectorSeq", 1, "BTF"),
    ("IndexSeq", 1, "BT"),
    ("Volume", 5, "BDHWC"),
    ("VolumeSeq", 4, "BTDHWC"),
];

/// The axis letters (upper case) a layout argument spells, where the derive can read them:
/// `layout!(bhwc)`, an alias such as `BHWC`, a tuple such as `(B, H, W, C)`.
fn layout_letters(ty: &syn::Type) -> Option<String> {
    let is_axes = |s: &str| {
        !s.is_empty()
            && s.chars().all(|c| {
                batchspec_facts::AXES
                    .iter()
                    .any(|a| a.letter.to_ascii_uppercase() == c)
            })
    };
    match ty {
        syn::Type::Macro(m) if m.mac.path.is_ident("layout") => {
            let text = if let Ok(id) = syn::parse2::<syn::Ident>(m.mac.tokens.clone()) {
                id.to_string()
            } else {
                syn::parse2::<syn::LitStr>(m.mac.tokens.clone())
                    .ok()?
                    .value()
            };
            let up = text.to_ascii_uppercase();
            is_axes(&up).then_some(up)
        }
        syn::Type::Path(p) if p.qself.is_none() => {
            let name = p.path.get_ident()?.to_string();
            is_axes(&name).then_some(name)
        }
        syn::Type::Tuple(t) => {
            let mut out = String::new();
            for e in &t.elems {
                match e {
                    syn::Type::Path(p) if p.qself.is_none() => {
                        let n = p.path.get_ident()?.to_string();
                        if n.len() != 1 {
                            return None;
                        }
                        out.push_str(&n);
                    }
                    _ => return None,
                }
            }
            is_axes(&out).then_some(out)
        }
        syn::Type::Paren(p) => layout_letters(&p.elem),
        syn::Type::Group(g) => layout_letters(&g.elem),
        _ => None,
    }
}

/// Whether a field's type gives a space a layout of another space (`VectorSeq<64, BHWC>`). The
/// struct itself reports it, once, in the words of the core's message (the space's layout
/// bound); the derive then adds only stubs, since each item naming the type would repeat it.
pub fn has_foreign_layout(ty: &syn::Type) -> bool {
    let mut found = false;
    check_space_layouts(&mut found, ty);
    found
}

fn check_space_layouts(found: &mut bool, ty: &syn::Type) {
    match ty {
        syn::Type::Path(p) => {
            for seg in &p.path.segments {
                let syn::PathArguments::AngleBracketed(args) = &seg.arguments else {
                    continue;
                };
                let list: Vec<&syn::GenericArgument> = args.args.iter().collect();
                if let Some((_, at, axes)) = LAYOUT_SPACES.iter().find(|f| seg.ident == f.0)
                    && let Some(syn::GenericArgument::Type(layout)) = list.get(*at)
                    && let Some(letters) = layout_letters(layout)
                {
                    let mut got: Vec<char> = letters.chars().collect();
                    let mut want: Vec<char> = axes.chars().collect();
                    got.sort_unstable();
                    want.sort_unstable();
                    if got != want {
                        *found = true;
                    }
                }
                for arg in &args.args {
                    if let syn::GenericArgument::Type(t) = arg {
                        check_space_layouts(found, t);
                    }
                }
            }
        }
        syn::Type::Tuple(t) => t.elems.iter().for_each(|e| check_space_layouts(found, e)),
        syn::Type::Paren(p) => check_space_layouts(found, &p.elem),
        syn::Type::Group(g) => check_space_layouts(found, &g.elem),
        _ => {}
    }
}

/// Whether a field's type holds a type macro that reports an error: a `layout!(..)` whose letters
/// are not a layout, or an `image!`/`volume!`/`window!` without its sizes or with a layout name
/// that the macros refuse (`NCHW`, `bchw`, `BHWDC`: `batchspec_facts::layout_name_mistake`).
pub fn has_bad_type_macro(input: &syn::DeriveInput) -> bool {
    use proc_macro2::{TokenStream, TokenTree};
    /// The number of comma-separated sizes before the first `;`.
    fn sizes(stream: TokenStream) -> usize {
        let mut n = 0;
        let mut item = false;
        for tt in stream {
            match tt {
                TokenTree::Punct(p) if p.as_char() == ';' => break,
                TokenTree::Punct(p) if p.as_char() == ',' => {
                    n += usize::from(item);
                    item = false;
                }
                _ => item = true,
            }
        }
        n + usize::from(item)
    }
    /// The layout after the `;` when it is a name alone (`BHWC`, not `layout!(..)` or a path).
    fn layout_name(stream: TokenStream) -> Option<String> {
        let mut after = stream
            .into_iter()
            .skip_while(|tt| !matches!(tt, TokenTree::Punct(p) if p.as_char() == ';'))
            .skip(1);
        let TokenTree::Ident(name) = after.next()? else {
            return None;
        };
        match after.next() {
            None => Some(name.to_string()),
            Some(TokenTree::Punct(p)) if p.as_char() == ',' => Some(name.to_string()),
            Some(_) => None,
        }
    }
    fn scan(tokens: TokenStream) -> bool {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        tokens.iter().enumerate().any(|(i, tt)| match tt {
            TokenTree::Ident(id) => match (tokens.get(i + 1), tokens.get(i + 2)) {
                (Some(TokenTree::Punct(p)), Some(TokenTree::Group(g))) if p.as_char() == '!' => {
                    match id.to_string().as_str() {
                        "layout" => crate::layout::axes(g.stream()).is_err(),
                        name => batchspec_facts::SIZED_SPACES.iter().any(|f| {
                            f.macro_name == name
                                && (sizes(g.stream()) != f.sizes.len()
                                    || layout_name(g.stream()).is_some_and(|l| {
                                        batchspec_facts::layout_name_mistake(&l).is_some()
                                    }))
                        }),
                    }
                }
                _ => false,
            },
            TokenTree::Group(g) => scan(g.stream()),
            _ => false,
        })
    }
    match &input.data {
        syn::Data::Struct(s) => s.fields.iter().any(|f| {
            let ty = &f.ty;
            scan(quote::quote!(#ty))
        }),
        _ => false,
    }
}

/// The spaces of the core and how many generic arguments each takes (at least, at most).
const SPACE_ARITY: [(&str, usize, usize); 14] = [
    ("Vector", 1, 2),
    ("Index", 1, 3),
    ("Labels", 1, 2),
    ("Image", 4, 6),
    ("Volume", 5, 7),
    ("VolumeSeq", 4, 6),
    ("Window", 3, 5),
    ("VectorSeq", 1, 3),
    ("IndexSeq", 1, 3),
    ("Scalar", 0, 1),
    ("Lengths", 0, 1),
    ("Positions", 0, 2),
    ("Attention", 0, 1),
    ("CuSeqlens", 0, 1),
];

/// The element types, which a `Batch` given one as its second argument (its storage) mistakes
/// for the space's element.
const ELEMENTS: [&str; 12] = [
    "f32", "f64", "u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "bool", "usize",
];

/// Whether a field's type has a mistake that the struct itself reports, once, and that every
/// item naming the type would report again in its own words: a space of the core with too few
/// or too many generic arguments (`Vector` without its width, an `Image` without its total), or
/// an element type given to `Batch` as its storage (`Batch<Vector<3072>, f32>`). The derive then
/// adds only stubs.
pub fn has_type_mistake(input: &syn::DeriveInput) -> bool {
    fn args(seg: &syn::PathSegment) -> Vec<&syn::GenericArgument> {
        match &seg.arguments {
            syn::PathArguments::AngleBracketed(a) => a
                .args
                .iter()
                .filter(|a| !matches!(a, syn::GenericArgument::Lifetime(_)))
                .collect(),
            _ => Vec::new(),
        }
    }
    fn scan(ty: &syn::Type) -> bool {
        match ty {
            syn::Type::Path(p) => p.path.segments.iter().any(|seg| {
                let args = args(seg);
                let name = seg.ident.to_string();
                let arity = SPACE_ARITY
                    .iter()
                    .any(|(n, lo, hi)| *n == name && (args.len() < *lo || args.len() > *hi));
                let storage = name == "Batch"
                    && matches!(args.get(1), Some(syn::GenericArgument::Type(syn::Type::Path(t)))
                        if t.path.get_ident().is_some_and(|i| ELEMENTS.iter().any(|e| i == e)));
                arity
                    || storage
                    || args.iter().any(|a| match a {
                        syn::GenericArgument::Type(t) => scan(t),
                        _ => false,
                    })
            }),
            syn::Type::Tuple(t) => t.elems.iter().any(scan),
            syn::Type::Paren(p) => scan(&p.elem),
            syn::Type::Group(g) => scan(&g.elem),
            _ => false,
        }
    }
    match &input.data {
        syn::Data::Struct(s) => s.fields.iter().any(|f| scan(&f.ty)),
        _ => false,
    }
}

/// Text for a `#[diagnostic::on_unimplemented]` string: braces doubled.
pub fn escape(s: &str) -> String {
    s.replace('{', "{{").replace('}', "}}")
}

/// `augment` and `mixed_with` go on a batch field, not on a tuple or a nested spec.
pub fn augment_on_a_batch(f: &Field<'_>) -> Option<syn::Error> {
    if kind(f.ty) == Kind::Leaf {
        return None;
    }
    let at = f
        .augment
        .as_ref()
        .map(|a| a.0)
        .or(f.mixed_with.as_ref().map(|m| m.0))?;
    Some(syn::Error::new(
        at,
        "`augment` and `mixed_with` go on a batch field (`Batch<..>`), not on a tuple or a nested spec",
    ))
}

/// A collate policy, `lengths_of` and `mask_of` go on a batch field, not on a tuple or a nested
/// spec.
pub fn collate_on_a_batch(f: &Field<'_>) -> Option<syn::Error> {
    if kind(f.ty) == Kind::Leaf {
        return None;
    }
    let at = f.collate.span().or(f.steps_of.as_ref().map(|o| o.span))?;
    Some(syn::Error::new(
        at,
        "`pad`, `pad_to`, `truncate`, `lengths_of` and `mask_of` go on a batch field (`Batch<..>` or `Ragged<..>`), not on a tuple or a nested spec",
    ))
}

/// The pad value of a batch field of labels is one of its labels.
pub fn pad_is_a_label(f: &Field<'_>) -> Option<syn::Error> {
    if kind(f.ty) != Kind::Leaf {
        return None;
    }
    let msg = pad_label_error(f)?;
    let (_, expr) = f.collate.pad.as_ref()?;
    Some(syn::Error::new_spanned(expr, msg))
}

/// An augmented field sits in a struct without generic parameters (the augmentation's sizes are
/// checked where the request is defined); `at` is the span of its `augment` key.
pub fn augment_without_generics(cont: &Container<'_>, at: Span) -> Option<syn::Error> {
    if cont.generics.params.is_empty() {
        return None;
    }
    Some(syn::Error::new(
        at,
        "a request with generic parameters cannot name an augmentation: its sizes are checked where the request is defined, so give the augmented field a written-out image type",
    ))
}

/// `mixed_with = "source"` names the source of an augmented field of the struct: the
/// augmentation it names, or the error at the key (`at`).
pub fn mixed_with_augmented<'a>(
    cont: &'a Container<'_>,
    at: Span,
    source: &str,
) -> Result<&'a syn::Type, syn::Error> {
    let partner = cont
        .fields
        .iter()
        .find(|g| g.source == source && g.augment.is_some());
    match partner.and_then(|g| g.augment.as_ref()) {
        Some((_, aug_ty)) => Ok(aug_ty),
        None => Err(syn::Error::new(
            at,
            format!(
                "`mixed_with = \"{}\"` names a source that no augmented field of `{}` reads: mix labels with the source of a field with `augment = ..` whose steps mix samples",
                escape(source),
                escape(&cont.ident.to_string())
            ),
        )),
    }
}

/// The space and number of labels `M` of a field written `Batch<IndexSeq<M, ..>>` or
/// `Batch<Labels<M, ..>>` (or `Ragged<..>`, `ArcBatch<..>`) with `M` a literal.
fn index_seq_labels(ty: &syn::Type) -> Option<(String, u128)> {
    fn first_type(seg: &syn::PathSegment) -> Option<&syn::Type> {
        let syn::PathArguments::AngleBracketed(args) = &seg.arguments else {
            return None;
        };
        args.args.iter().find_map(|a| match a {
            syn::GenericArgument::Type(t) => Some(t),
            _ => None,
        })
    }
    let syn::Type::Path(batch) = peel(ty) else {
        return None;
    };
    let space = first_type(batch.path.segments.last()?)?;
    let syn::Type::Path(space) = peel(space) else {
        return None;
    };
    let seg = space.path.segments.last()?;
    if seg.ident != "IndexSeq" && seg.ident != "Labels" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &seg.arguments else {
        return None;
    };
    match args.args.first()? {
        syn::GenericArgument::Const(syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(n),
            ..
        })) => Some((seg.ident.to_string(), n.base10_parse().ok()?)),
        syn::GenericArgument::Type(syn::Type::Path(t)) => {
            // A literal parses as a type path only if it is an identifier: not a number.
            let _ = t;
            None
        }
        _ => None,
    }
}

/// The error of a pad value that is not a label of the field's index space (`IndexSeq<N>` or
/// `Labels<N>`), when both are literals.
fn pad_label_error(f: &Field<'_>) -> Option<String> {
    let (_, expr) = f.collate.pad.as_ref()?;
    let (space, labels) = index_seq_labels(f.ty)?;
    let (negative, lit) = match expr {
        syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => (true, &*u.expr),
        e => (false, e),
    };
    let syn::Expr::Lit(syn::ExprLit {
        lit: syn::Lit::Int(n),
        ..
    }) = lit
    else {
        return None;
    };
    let value: u128 = n.base10_parse().ok()?;
    (negative && value > 0 || value >= labels).then(|| {
        format!(
            "pad value {}{value} is not a label of `{space}<{labels}>`: its labels are 0..{labels}",
            if negative { "-" } else { "" }
        )
    })
}
