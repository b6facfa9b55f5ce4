// The expansion of tests/expand/bad_layout.rs; written by `BATCHSPEC_BLESS=1 cargo test`.
// tokens: ec970ba6c43faa2b
// spans: 4655949db64ab2de
#[doc(hidden)]
#[allow(unused_qualifications, clippy::all)]
const _: () = {
    impl<__SpecSrc> ::batchspec::__private::Node<__SpecSrc> for BadLayout {
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
    impl ::batchspec::__private::DataSpec for BadLayout {}
    impl<__SpecR> ::batchspec::__private::Reads<__SpecR> for BadLayout {}
    impl<__SpecR> ::batchspec::__private::ServeFrom<__SpecR> for BadLayout {
        fn serve_from(_: &__SpecR, _: &mut ::batchspec::__private::ServeCache) -> Self {
            ::batchspec::__private::core::unreachable!()
        }
    }
    impl<__SpecR> ::batchspec::__private::GatherFrom<__SpecR> for BadLayout {
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
    impl<__SpecR> ::batchspec::__private::ProvidedBy<__SpecR> for BadLayout {}
    impl ::batchspec::__private::GatherSame for BadLayout {
        fn gather_same(_: &mut Self, _: &Self, _: &[usize], _: usize) {
            ::batchspec::__private::core::unreachable!()
        }
    }
    impl ::batchspec::__private::LoadRecord for BadLayout {
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
