// The expansion of tests/expand/attr_errors.rs; written by `BATCHSPEC_BLESS=1 cargo test`.
// tokens: c60ad1bf0d16601d
// spans: 3ac3477c79e53d7d
::core::compile_error! {
    "unknown spec attribute `krate`; did you mean `crate`?"
}
::core::compile_error! {
    "`source` goes on a field, not on the struct: each field names its own source"
}
::core::compile_error! {
    "`not a path` is not a path"
}
::core::compile_error! {
    "duplicate spec attribute `source`: it is given earlier in this attribute list; give each key once"
}
::core::compile_error! {
    "expected the pad value as a number, as in `pad = 0` or `pad = -1.0`"
}
::core::compile_error! {
    "`pad_to = 0` gives batches of no steps; give the number of time steps of every batch, at least 1"
}
::core::compile_error! {
    "`truncate` takes no value: write `truncate` to cut samples longer than the batch's steps"
}
::core::compile_error! {
    "expected the source as a string literal, as in `source = \"features\"`"
}
::core::compile_error! {
    "expected the number of time steps as an integer, as in `pad_to = 128`"
}
::core::compile_error! {
    "expected the source as a string literal, as in `mixed_with = \"image\"`"
}
::core::compile_error! {
    "a field is either `lengths_of` or `mask_of` a source, not both: give the mask a field of its own"
}
::core::compile_error! {
    "`lengths_of` names the source this field describes; drop `source`"
}
::core::compile_error! {
    "a `mask_of` field takes its steps from the sequence field of source \"a\": give `pad`, `pad_to` and `truncate` there"
}
::core::compile_error! {
    "`augment` makes a field's values itself (its padding rows are zeros); `pad`, `pad_to`, `truncate`, `lengths_of` and `mask_of` go on fields gathered as they are: a field takes one or the other"
}
::core::compile_error! {
    "a field is either augmented (`augment`) or labels mixed with an augmented source (`mixed_with`), not both"
}
::core::compile_error! {
    "a source name cannot be empty; a leaf that needs no data is a `Null` field"
}
::core::compile_error! {
    "source name `a name longer than thirty-two chars` has 35 characters; a source name has at most 32"
}
::core::compile_error! {
    "expected the source as a string literal, as in `lengths_of = \"tokens\"`"
}
::core::compile_error! {
    "expected the augmentation as a type, as in `augment = Train` or `augment = Eval<Train>`"
}
::core::compile_error! {
    "expected `,`"
}
::core::compile_error! {
    "unknown spec attribute `pad_too`; did you mean `pad_to`?"
}
#[doc(hidden)]
#[allow(unused_qualifications, clippy::all)]
const _: () = {
    impl<__SpecSrc> ::batchspec::__private::Node<__SpecSrc> for Mistakes {
        type Spaces = ();
        type Sources = ();
        type Leaves = ::batchspec::__private::HNil;
        type Flat = ::batchspec::__private::HNil;
        type FlatRef<'__spec_a> = ::batchspec::__private::HNil where Self: '__spec_a;
        type FlatMut<'__spec_a> = ::batchspec::__private::HNil where Self: '__spec_a;
        type Mapped<__SpecT> = ();
        type Views<'__spec_a> = () where Self: '__spec_a;
        const LEAVES: usize = 0;
        const TOTAL: ::batchspec::__private::core::option::Option<usize> = ::batchspec::__private::core::option::Option::None;
        fn describe_node(
            _: usize,
            _: &::batchspec::__private::Path<'_>,
            _: &mut ::batchspec::__private::Vec<::batchspec::__private::Described>,
        ) {
            ::batchspec::__private::core::unreachable!()
        }
        fn check_node(
            &self,
            _: &::batchspec::__private::Path<'_>,
            _: &mut ::batchspec::__private::SizeCheck,
        ) -> ::batchspec::__private::core::result::Result<
            (),
            ::batchspec::__private::SpecError,
        > {
            ::batchspec::__private::core::unreachable!()
        }
        fn node_flatten(self) -> ::batchspec::__private::HNil {
            ::batchspec::__private::core::unreachable!()
        }
        fn node_nest(_: ::batchspec::__private::HNil) -> Self {
            ::batchspec::__private::core::unreachable!()
        }
        fn node_flatten_ref(&self) -> ::batchspec::__private::HNil {
            ::batchspec::__private::core::unreachable!()
        }
        fn node_flatten_mut(&mut self) -> ::batchspec::__private::HNil {
            ::batchspec::__private::core::unreachable!()
        }
        fn node_views(&self, _: ::batchspec::__private::core::ops::Range<usize>) {}
        fn node_nest_mapped<
            __SpecT,
            __SpecN: ::batchspec::__private::core::ops::FnMut() -> __SpecT,
        >(_: &mut __SpecN) {}
        fn node_flatten_mapped<
            __SpecT,
            __SpecV: ::batchspec::__private::core::ops::FnMut(__SpecT),
        >(_: (), _: &mut __SpecV) {}
    }
    impl ::batchspec::__private::DataSpec for Mistakes {}
    impl<__SpecR> ::batchspec::__private::Reads<__SpecR> for Mistakes {}
    impl<__SpecR> ::batchspec::__private::ServeFrom<__SpecR> for Mistakes {
        fn serve_from(_: &__SpecR, _: &mut ::batchspec::__private::ServeCache) -> Self {
            ::batchspec::__private::core::unreachable!()
        }
    }
    impl<__SpecR> ::batchspec::__private::GatherFrom<__SpecR> for Mistakes {
        fn gather_from(
            _: &mut Self,
            _: &__SpecR,
            _: &[usize],
            _: ::batchspec::__private::core::ops::Range<usize>,
            _: ::batchspec::__private::Draws<'_>,
        ) -> ::batchspec::__private::core::result::Result<
            (),
            ::batchspec::__private::DataError,
        > {
            ::batchspec::__private::core::unreachable!()
        }
        fn check_fits(
            _: &__SpecR,
        ) -> ::batchspec::__private::core::result::Result<
            (),
            ::batchspec::__private::DataError,
        > {
            ::batchspec::__private::core::unreachable!()
        }
    }
    impl<__SpecR> ::batchspec::__private::ProvidedBy<__SpecR> for Mistakes {}
    impl ::batchspec::__private::GatherSame for Mistakes {
        fn gather_same(_: &mut Self, _: &Self, _: &[usize], _: usize) {
            ::batchspec::__private::core::unreachable!()
        }
    }
    impl ::batchspec::__private::LoadRecord for Mistakes {
        fn load_record<__SpecL: ::batchspec::__private::LeafSource>(
            _: &mut __SpecL,
            _: &mut ::batchspec::__private::core::slice::Iter<
                '_,
                ::batchspec::__private::Described,
            >,
        ) -> ::batchspec::__private::core::result::Result<Self, __SpecL::Error> {
            ::batchspec::__private::core::unreachable!()
        }
    }
};
