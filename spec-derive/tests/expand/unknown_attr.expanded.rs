// The expansion of tests/expand/unknown_attr.rs; written by `BATCHSPEC_BLESS=1 cargo test`.
// tokens: 480f4a40ffd84bda
// spans: 1831695e00fcb77c
::core::compile_error! {
    "unknown spec attribute `sorce`; did you mean `source`?"
}
#[doc(hidden)]
#[allow(unused_qualifications, clippy::all)]
const _: () = {
    impl<S: Space, __SpecSrc> bs::__private::Node<__SpecSrc> for Misspelt<S> {
        type Spaces = ();
        type Sources = ();
        type Leaves = bs::__private::HNil;
        type Flat = bs::__private::HNil;
        type FlatRef<'__spec_a> = bs::__private::HNil where Self: '__spec_a;
        type FlatMut<'__spec_a> = bs::__private::HNil where Self: '__spec_a;
        type Mapped<__SpecT> = ();
        type Views<'__spec_a> = () where Self: '__spec_a;
        const LEAVES: usize = 0;
        const TOTAL: bs::__private::core::option::Option<usize> = bs::__private::core::option::Option::None;
        fn describe_node(
            _: usize,
            _: &bs::__private::Path<'_>,
            _: &mut bs::__private::Vec<bs::__private::Described>,
        ) {
            bs::__private::core::unreachable!()
        }
        fn check_node(
            &self,
            _: &bs::__private::Path<'_>,
            _: &mut bs::__private::SizeCheck,
        ) -> bs::__private::core::result::Result<(), bs::__private::SpecError> {
            bs::__private::core::unreachable!()
        }
        fn node_flatten(self) -> bs::__private::HNil {
            bs::__private::core::unreachable!()
        }
        fn node_nest(_: bs::__private::HNil) -> Self {
            bs::__private::core::unreachable!()
        }
        fn node_flatten_ref(&self) -> bs::__private::HNil {
            bs::__private::core::unreachable!()
        }
        fn node_flatten_mut(&mut self) -> bs::__private::HNil {
            bs::__private::core::unreachable!()
        }
        fn node_views(&self, _: bs::__private::core::ops::Range<usize>) {}
        fn node_nest_mapped<
            __SpecT,
            __SpecN: bs::__private::core::ops::FnMut() -> __SpecT,
        >(_: &mut __SpecN) {}
        fn node_flatten_mapped<
            __SpecT,
            __SpecV: bs::__private::core::ops::FnMut(__SpecT),
        >(_: (), _: &mut __SpecV) {}
    }
    impl<S: Space> bs::__private::DataSpec for Misspelt<S> {}
    impl<S: Space, __SpecR> bs::__private::Reads<__SpecR> for Misspelt<S> {}
    impl<S: Space, __SpecR> bs::__private::ServeFrom<__SpecR> for Misspelt<S> {
        fn serve_from(_: &__SpecR, _: &mut bs::__private::ServeCache) -> Self {
            bs::__private::core::unreachable!()
        }
    }
    impl<S: Space, __SpecR> bs::__private::GatherFrom<__SpecR> for Misspelt<S> {
        fn gather_from(
            _: &mut Self,
            _: &__SpecR,
            _: &[usize],
            _: bs::__private::core::ops::Range<usize>,
            _: bs::__private::Draws<'_>,
        ) -> bs::__private::core::result::Result<(), bs::__private::DataError> {
            bs::__private::core::unreachable!()
        }
        fn check_fits(
            _: &__SpecR,
        ) -> bs::__private::core::result::Result<(), bs::__private::DataError> {
            bs::__private::core::unreachable!()
        }
    }
    impl<S: Space, __SpecR> bs::__private::ProvidedBy<__SpecR> for Misspelt<S> {}
    impl<S: Space> bs::__private::GatherSame for Misspelt<S> {
        fn gather_same(_: &mut Self, _: &Self, _: &[usize], _: usize) {
            bs::__private::core::unreachable!()
        }
    }
    impl<S: Space> bs::__private::LoadRecord for Misspelt<S> {
        fn load_record<__SpecL: bs::__private::LeafSource>(
            _: &mut __SpecL,
            _: &mut bs::__private::core::slice::Iter<'_, bs::__private::Described>,
        ) -> bs::__private::core::result::Result<Self, __SpecL::Error> {
            bs::__private::core::unreachable!()
        }
    }
};
