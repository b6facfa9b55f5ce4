// The expansion of tests/expand/shared_source.rs; written by `BATCHSPEC_BLESS=1 cargo test`.
// tokens: efe1e00c1b6c08e2
// spans: 5e547aa6cc0165ec
#[doc(hidden)]
#[allow(non_camel_case_types, unused_qualifications, clippy::all)]
const _: () = {
    use ::batchspec::__private as __spec_p;
    #[allow(dead_code)]
    fn __spec_fields()
    where
        Batch<Vector<2>>: __spec_p::SpecField,
        Batch<Vector<2>>: __spec_p::SpecField,
    {}
    #[automatically_derived]
    #[diagnostic::do_not_recommend]
    impl<__SpecSrc> __spec_p::Node<__SpecSrc> for Twice
    where
        for<'__spec_w> Batch<Vector<2>>: __spec_p::Node<__spec_p::Src<'x'>>,
        for<'__spec_w> Batch<Vector<2>>: __spec_p::Node<__spec_p::Src<'x'>>,
    {
        type Spaces = (
            <Batch<Vector<2>> as __spec_p::Node<__spec_p::Src<'x'>>>::Spaces,
            <Batch<Vector<2>> as __spec_p::Node<__spec_p::Src<'x'>>>::Spaces,
        );
        type Sources = (
            <Batch<Vector<2>> as __spec_p::Node<__spec_p::Src<'x'>>>::Sources,
            <Batch<Vector<2>> as __spec_p::Node<__spec_p::Src<'x'>>>::Sources,
        );
        type Leaves = __spec_p::LeafPair<
            <Batch<Vector<2>> as __spec_p::Node<__spec_p::Src<'x'>>>::Leaves,
            <Batch<Vector<2>> as __spec_p::Node<__spec_p::Src<'x'>>>::Leaves,
        >;
        type Flat = __spec_p::Pair<
            <Batch<Vector<2>> as __spec_p::Node<__spec_p::Src<'x'>>>::Flat,
            <Batch<Vector<2>> as __spec_p::Node<__spec_p::Src<'x'>>>::Flat,
        >;
        type FlatRef<'__spec_a> = __spec_p::Pair<
            <Batch<Vector<2>> as __spec_p::Node<__spec_p::Src<'x'>>>::FlatRef<'__spec_a>,
            <Batch<Vector<2>> as __spec_p::Node<__spec_p::Src<'x'>>>::FlatRef<'__spec_a>,
        >
        where
            Self: '__spec_a;
        type FlatMut<'__spec_a> = __spec_p::Pair<
            <Batch<Vector<2>> as __spec_p::Node<__spec_p::Src<'x'>>>::FlatMut<'__spec_a>,
            <Batch<Vector<2>> as __spec_p::Node<__spec_p::Src<'x'>>>::FlatMut<'__spec_a>,
        >
        where
            Self: '__spec_a;
        type Mapped<__SpecT> = (
            <Batch<Vector<2>> as __spec_p::Node<__spec_p::Src<'x'>>>::Mapped<__SpecT>,
            <Batch<Vector<2>> as __spec_p::Node<__spec_p::Src<'x'>>>::Mapped<__SpecT>,
        );
        type Views<'__spec_a> = TwiceMapped<
            <Batch<Vector<2>> as __spec_p::Node<__spec_p::Src<'x'>>>::Views<'__spec_a>,
            <Batch<Vector<2>> as __spec_p::Node<__spec_p::Src<'x'>>>::Views<'__spec_a>,
        >
        where
            Self: '__spec_a;
        const LEAVES: usize = 0
            + <Batch<Vector<2>> as __spec_p::Node<__spec_p::Src<'x'>>>::LEAVES
            + <Batch<Vector<2>> as __spec_p::Node<__spec_p::Src<'x'>>>::LEAVES;
        const TOTAL: __spec_p::core::option::Option<usize> = __spec_p::__add_features(
            <Batch<Vector<2>> as __spec_p::Node<__spec_p::Src<'x'>>>::TOTAL,
            __spec_p::__add_features(
                <Batch<Vector<2>> as __spec_p::Node<__spec_p::Src<'x'>>>::TOTAL,
                __spec_p::core::option::Option::Some(0usize),
            ),
        );
        fn describe_node(
            __spec_batch: usize,
            __spec_path: &__spec_p::Path<'_>,
            __spec_out: &mut __spec_p::Vec<__spec_p::Described>,
        ) {
            <Batch<
                Vector<2>,
            > as __spec_p::Node<
                __spec_p::Src<'x'>,
            >>::describe_node(
                __spec_batch,
                &__spec_p::Path::Field(__spec_path, "a"),
                __spec_out,
            );
            <Batch<
                Vector<2>,
            > as __spec_p::Node<
                __spec_p::Src<'x'>,
            >>::describe_node(
                __spec_batch,
                &__spec_p::Path::Field(__spec_path, "b"),
                __spec_out,
            );
        }
        fn check_node(
            &self,
            __spec_path: &__spec_p::Path<'_>,
            __spec_sizes: &mut __spec_p::SizeCheck,
        ) -> __spec_p::core::result::Result<(), __spec_p::SpecError> {
            <Batch<
                Vector<2>,
            > as __spec_p::Node<
                __spec_p::Src<'x'>,
            >>::check_node(
                &self.a,
                &__spec_p::Path::Field(__spec_path, "a"),
                __spec_sizes,
            )?;
            <Batch<
                Vector<2>,
            > as __spec_p::Node<
                __spec_p::Src<'x'>,
            >>::check_node(
                &self.b,
                &__spec_p::Path::Field(__spec_path, "b"),
                __spec_sizes,
            )?;
            __spec_p::core::result::Result::Ok(())
        }
        #[inline(always)]
        fn node_flatten(self) -> Self::Flat {
            __spec_p::Pair {
                first: <Batch<
                    Vector<2>,
                > as __spec_p::Node<__spec_p::Src<'x'>>>::node_flatten(self.a),
                second: <Batch<
                    Vector<2>,
                > as __spec_p::Node<__spec_p::Src<'x'>>>::node_flatten(self.b),
            }
        }
        #[inline(always)]
        fn node_nest(__spec_flat: Self::Flat) -> Self {
            let __spec_p::Pair { first: __spec_part0, second: __spec_part1 } = __spec_flat;
            Self {
                a: <Batch<
                    Vector<2>,
                > as __spec_p::Node<__spec_p::Src<'x'>>>::node_nest(__spec_part0),
                b: <Batch<
                    Vector<2>,
                > as __spec_p::Node<__spec_p::Src<'x'>>>::node_nest(__spec_part1),
            }
        }
        #[inline(always)]
        fn node_flatten_ref(&self) -> Self::FlatRef<'_> {
            __spec_p::Pair {
                first: <Batch<
                    Vector<2>,
                > as __spec_p::Node<__spec_p::Src<'x'>>>::node_flatten_ref(&self.a),
                second: <Batch<
                    Vector<2>,
                > as __spec_p::Node<__spec_p::Src<'x'>>>::node_flatten_ref(&self.b),
            }
        }
        #[inline(always)]
        fn node_flatten_mut(&mut self) -> Self::FlatMut<'_> {
            __spec_p::Pair {
                first: <Batch<
                    Vector<2>,
                > as __spec_p::Node<__spec_p::Src<'x'>>>::node_flatten_mut(&mut self.a),
                second: <Batch<
                    Vector<2>,
                > as __spec_p::Node<__spec_p::Src<'x'>>>::node_flatten_mut(&mut self.b),
            }
        }
        fn node_views(
            &self,
            __spec_rows: __spec_p::core::ops::Range<usize>,
        ) -> Self::Views<'_> {
            let _ = &__spec_rows;
            TwiceMapped {
                a: <Batch<
                    Vector<2>,
                > as __spec_p::Node<
                    __spec_p::Src<'x'>,
                >>::node_views(
                    &self.a,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                b: <Batch<
                    Vector<2>,
                > as __spec_p::Node<
                    __spec_p::Src<'x'>,
                >>::node_views(
                    &self.b,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
            }
        }
        fn node_nest_mapped<__SpecT, __SpecN: __spec_p::core::ops::FnMut() -> __SpecT>(
            __spec_next: &mut __SpecN,
        ) -> Self::Mapped<__SpecT> {
            let _ = &__spec_next;
            (
                <Batch<
                    Vector<2>,
                > as __spec_p::Node<__spec_p::Src<'x'>>>::node_nest_mapped(__spec_next),
                <Batch<
                    Vector<2>,
                > as __spec_p::Node<__spec_p::Src<'x'>>>::node_nest_mapped(__spec_next),
            )
        }
        fn node_flatten_mapped<__SpecT, __SpecV: __spec_p::core::ops::FnMut(__SpecT)>(
            __spec_mapped: Self::Mapped<__SpecT>,
            __spec_visit: &mut __SpecV,
        ) {
            let _ = (&__spec_mapped, &__spec_visit);
            <Batch<
                Vector<2>,
            > as __spec_p::Node<
                __spec_p::Src<'x'>,
            >>::node_flatten_mapped(__spec_mapped.0, __spec_visit);
            <Batch<
                Vector<2>,
            > as __spec_p::Node<
                __spec_p::Src<'x'>,
            >>::node_flatten_mapped(__spec_mapped.1, __spec_visit);
        }
    }
    #[automatically_derived]
    impl __spec_p::DataSpec for Twice
    where
        for<'__spec_w> Batch<Vector<2>>: __spec_p::Node<__spec_p::Src<'x'>>,
        for<'__spec_w> Batch<Vector<2>>: __spec_p::Node<__spec_p::Src<'x'>>,
    {}
    impl __spec_p::FieldSource for Twice·a {
        type Key = __spec_p::Src<'x'>;
        type Family = __spec_p::FamilyOf<Batch<Vector<2>>>;
    }
    impl __spec_p::FieldSource for Twice·b {
        type Key = __spec_p::Src<'x'>;
        type Family = __spec_p::FamilyOf<Batch<Vector<2>>>;
    }
    impl<R> __spec_p::ProjectFrom<R> for Twice
    where
        Twice·a: __spec_p::SourceServedBy<R>,
        <Twice·a as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::LendsAs<<Batch<Vector<2>> as __spec_p::LeafField>::Space>,
        for<'__spec_x> <Twice·a as __spec_p::SourceServedBy<
            R,
        >>::Field: __spec_p::ProjectAs<'__spec_x, Batch<Vector<2>>>,
        Twice·b: __spec_p::SourceServedBy<R>,
        <Twice·b as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::LendsAs<<Batch<Vector<2>> as __spec_p::LeafField>::Space>,
        for<'__spec_x> <Twice·b as __spec_p::SourceServedBy<
            R,
        >>::Field: __spec_p::ProjectAs<'__spec_x, Batch<Vector<2>>>,
    {
        type Views<'__spec_a> = TwiceMapped<
            <<Twice·a as __spec_p::SourceServedBy<
                R,
            >>::Field as __spec_p::ProjectAs<'__spec_a, Batch<Vector<2>>>>::View,
            <<Twice·b as __spec_p::SourceServedBy<
                R,
            >>::Field as __spec_p::ProjectAs<'__spec_a, Batch<Vector<2>>>>::View,
        >
        where
            R: '__spec_a;
        fn project_rows(
            __spec_record: &R,
            __spec_rows: __spec_p::core::ops::Range<usize>,
        ) -> Self::Views<'_> {
            let _ = (&__spec_record, &__spec_rows);
            TwiceMapped {
                a: <<Twice·a as __spec_p::SourceServedBy<
                    R,
                >>::Field as __spec_p::ProjectAs<
                    '_,
                    Batch<Vector<2>>,
                >>::project(
                    <<Twice·a as __spec_p::SourceServedBy<
                        R,
                    >>::Via as __spec_p::SourceOf<R>>::field(__spec_record),
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                b: <<Twice·b as __spec_p::SourceServedBy<
                    R,
                >>::Field as __spec_p::ProjectAs<
                    '_,
                    Batch<Vector<2>>,
                >>::project(
                    <<Twice·b as __spec_p::SourceServedBy<
                        R,
                    >>::Via as __spec_p::SourceOf<R>>::field(__spec_record),
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
            }
        }
    }
    impl<R> __spec_p::Reads<R> for Twice
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        Twice·a: __spec_p::SourceServedBy<R>,
        <Twice·a as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<<Batch<Vector<2>> as __spec_p::LeafField>::Space>,
        Twice·b: __spec_p::SourceServedBy<R>,
        <Twice·b as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<<Batch<Vector<2>> as __spec_p::LeafField>::Space>,
    {}
    impl<R> __spec_p::ServeFrom<R> for Twice
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        Twice·a: __spec_p::SourceServedBy<R>,
        <Twice·a as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<<Batch<Vector<2>> as __spec_p::LeafField>::Space>,
        for<'__spec_x> Batch<
            Vector<2>,
        >: __spec_p::FromShared<<Batch<Vector<2>> as __spec_p::LeafField>::Space>,
        Twice·b: __spec_p::SourceServedBy<R>,
        <Twice·b as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<<Batch<Vector<2>> as __spec_p::LeafField>::Space>,
        for<'__spec_x> Batch<
            Vector<2>,
        >: __spec_p::FromShared<<Batch<Vector<2>> as __spec_p::LeafField>::Space>,
    {
        fn serve_from(
            __spec_record: &R,
            __spec_cache: &mut __spec_p::ServeCache,
        ) -> Self {
            let _ = (&__spec_record, &__spec_cache);
            Self {
                a: <Batch<
                    Vector<2>,
                > as __spec_p::FromShared<
                    <Batch<Vector<2>> as __spec_p::LeafField>::Space,
                >>::from_shared(
                    <__spec_p::LeafVia<
                        __spec_p::Src<'x'>,
                    > as __spec_p::LeafConvert<
                        <Twice·a as __spec_p::SourceServedBy<R>>::Space,
                        <Batch<Vector<2>> as __spec_p::LeafField>::Space,
                    >>::serve(
                        <<Twice·a as __spec_p::SourceServedBy<
                            R,
                        >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                        __spec_cache,
                    ),
                ),
                b: <Batch<
                    Vector<2>,
                > as __spec_p::FromShared<
                    <Batch<Vector<2>> as __spec_p::LeafField>::Space,
                >>::from_shared(
                    <__spec_p::LeafVia<
                        __spec_p::Src<'x'>,
                    > as __spec_p::LeafConvert<
                        <Twice·b as __spec_p::SourceServedBy<R>>::Space,
                        <Batch<Vector<2>> as __spec_p::LeafField>::Space,
                    >>::serve(
                        <<Twice·b as __spec_p::SourceServedBy<
                            R,
                        >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                        __spec_cache,
                    ),
                ),
            }
        }
    }
    impl<R> __spec_p::GatherFrom<R> for Twice
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        Twice·a: __spec_p::SourceServedBy<R>,
        <Twice·a as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<<Batch<Vector<2>> as __spec_p::LeafField>::Space>,
        for<'__spec_x> Batch<
            Vector<2>,
        >: __spec_p::GatherInto<<Batch<Vector<2>> as __spec_p::LeafField>::Space>,
        Twice·b: __spec_p::SourceServedBy<R>,
        <Twice·b as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<<Batch<Vector<2>> as __spec_p::LeafField>::Space>,
        for<'__spec_x> Batch<
            Vector<2>,
        >: __spec_p::GatherInto<<Batch<Vector<2>> as __spec_p::LeafField>::Space>,
    {
        fn gather_from(
            __spec_out: &mut Self,
            __spec_record: &R,
            __spec_rows: &[usize],
            __spec_zero: __spec_p::core::ops::Range<usize>,
            __spec_draws: __spec_p::Draws<'_>,
        ) -> __spec_p::core::result::Result<(), __spec_p::DataError> {
            let _ = (
                &__spec_out,
                &__spec_record,
                &__spec_rows,
                &__spec_zero,
                &__spec_draws,
            );
            let __spec_collate_a = &__spec_p::Collate::DEFAULT;
            <__spec_p::LeafVia<
                __spec_p::Src<'x'>,
            > as __spec_p::LeafConvert<
                <Twice·a as __spec_p::SourceServedBy<R>>::Space,
                <Batch<Vector<2>> as __spec_p::LeafField>::Space,
            >>::gather(
                <<Twice·a as __spec_p::SourceServedBy<
                    R,
                >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                __spec_rows,
                __spec_p::core::clone::Clone::clone(&__spec_zero),
                &mut __spec_out.a,
                __spec_collate_a,
            )?;
            let __spec_collate_b = &__spec_p::Collate::DEFAULT;
            <__spec_p::LeafVia<
                __spec_p::Src<'x'>,
            > as __spec_p::LeafConvert<
                <Twice·b as __spec_p::SourceServedBy<R>>::Space,
                <Batch<Vector<2>> as __spec_p::LeafField>::Space,
            >>::gather(
                <<Twice·b as __spec_p::SourceServedBy<
                    R,
                >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                __spec_rows,
                __spec_p::core::clone::Clone::clone(&__spec_zero),
                &mut __spec_out.b,
                __spec_collate_b,
            )?;
            __spec_p::core::result::Result::Ok(())
        }
        fn check_fits(
            __spec_record: &R,
        ) -> __spec_p::core::result::Result<(), __spec_p::DataError> {
            let _ = &__spec_record;
            let __spec_collate_a = &__spec_p::Collate::DEFAULT;
            <__spec_p::LeafVia<
                __spec_p::Src<'x'>,
            > as __spec_p::LeafConvert<
                <Twice·a as __spec_p::SourceServedBy<R>>::Space,
                <Batch<Vector<2>> as __spec_p::LeafField>::Space,
            >>::fits(
                <<Twice·a as __spec_p::SourceServedBy<
                    R,
                >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                __spec_collate_a,
            )?;
            let __spec_collate_b = &__spec_p::Collate::DEFAULT;
            <__spec_p::LeafVia<
                __spec_p::Src<'x'>,
            > as __spec_p::LeafConvert<
                <Twice·b as __spec_p::SourceServedBy<R>>::Space,
                <Batch<Vector<2>> as __spec_p::LeafField>::Space,
            >>::fits(
                <<Twice·b as __spec_p::SourceServedBy<
                    R,
                >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                __spec_collate_b,
            )?;
            __spec_p::core::result::Result::Ok(())
        }
    }
    impl<R> __spec_p::ProvidedBy<R> for Twice
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        Self: __spec_p::GatherFrom<R>,
        for<'__spec_x> <Self as __spec_p::Node<()>>::Flat: __spec_p::AllocFlat,
    {}
    impl __spec_p::GatherSame for Twice
    where
        for<'__spec_x> Batch<Vector<2>>: __spec_p::GatherSame,
        for<'__spec_x> Batch<Vector<2>>: __spec_p::GatherSame,
    {
        fn gather_same(
            __spec_out: &mut Self,
            __spec_from: &Self,
            __spec_rows: &[usize],
            __spec_at: usize,
        ) {
            let _ = (&__spec_out, &__spec_from, &__spec_rows, &__spec_at);
            <Batch<
                Vector<2>,
            > as __spec_p::GatherSame>::gather_same(
                &mut __spec_out.a,
                &__spec_from.a,
                __spec_rows,
                __spec_at,
            );
            <Batch<
                Vector<2>,
            > as __spec_p::GatherSame>::gather_same(
                &mut __spec_out.b,
                &__spec_from.b,
                __spec_rows,
                __spec_at,
            );
        }
    }
    impl __spec_p::LoadRecord for Twice
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        for<'__spec_x> Batch<Vector<2>>: __spec_p::LoadField,
        for<'__spec_x> Batch<Vector<2>>: __spec_p::LoadField,
    {
        fn load_record<__SpecL: __spec_p::LeafSource>(
            __spec_source: &mut __SpecL,
            __spec_leaves: &mut __spec_p::core::slice::Iter<'_, __spec_p::Described>,
        ) -> __spec_p::core::result::Result<Self, __SpecL::Error> {
            let _ = (&__spec_source, &__spec_leaves);
            __spec_p::core::result::Result::Ok(Self {
                a: <Batch<
                    Vector<2>,
                > as __spec_p::LoadField>::load_field(__spec_source, __spec_leaves)?,
                b: <Batch<
                    Vector<2>,
                > as __spec_p::LoadField>::load_field(__spec_source, __spec_leaves)?,
            })
        }
    }
    impl<R, __SpecK> __spec_p::ReadField<R, __SpecK> for Twice
    where
        for<'__spec_x> Self: __spec_p::Reads<R>,
    {}
    impl<R, __SpecK> __spec_p::ServeField<R, __SpecK> for Twice
    where
        for<'__spec_x> Self: __spec_p::ServeFrom<R>,
    {
        fn serve_field(
            __spec_record: &R,
            __spec_cache: &mut __spec_p::ServeCache,
        ) -> Self {
            <Self as __spec_p::ServeFrom<R>>::serve_from(__spec_record, __spec_cache)
        }
    }
    impl<R, __SpecK> __spec_p::GatherField<R, __SpecK> for Twice
    where
        for<'__spec_x> Self: __spec_p::GatherFrom<R>,
    {
        fn gather_field(
            &mut self,
            __spec_record: &R,
            __spec_rows: &[usize],
            __spec_zero: __spec_p::core::ops::Range<usize>,
            __spec_draws: __spec_p::Draws<'_>,
        ) -> __spec_p::core::result::Result<(), __spec_p::DataError> {
            <Self as __spec_p::GatherFrom<
                R,
            >>::gather_from(self, __spec_record, __spec_rows, __spec_zero, __spec_draws)
        }
        fn check_field(
            __spec_record: &R,
        ) -> __spec_p::core::result::Result<(), __spec_p::DataError> {
            <Self as __spec_p::GatherFrom<R>>::check_fits(__spec_record)
        }
    }
    #[automatically_derived]
    impl<M: __spec_p::LeafMapper> __spec_p::MapSpec<M> for Twice
    where
        Batch<Vector<2>>: __spec_p::MapSpec<M>,
        Batch<Vector<2>>: __spec_p::MapSpec<M>,
    {
        type Out = TwiceMapped<
            <Batch<Vector<2>> as __spec_p::MapSpec<M>>::Out,
            <Batch<Vector<2>> as __spec_p::MapSpec<M>>::Out,
        >;
        fn map_spec(
            self,
            __spec_mapper: &mut M,
        ) -> __spec_p::core::result::Result<
            Self::Out,
            <M as __spec_p::LeafMapper>::Error,
        > {
            let _ = &__spec_mapper;
            __spec_p::core::result::Result::Ok(TwiceMapped {
                a: <Batch<
                    Vector<2>,
                > as __spec_p::MapSpec<M>>::map_spec(self.a, __spec_mapper)?,
                b: <Batch<
                    Vector<2>,
                > as __spec_p::MapSpec<M>>::map_spec(self.b, __spec_mapper)?,
            })
        }
    }
    #[automatically_derived]
    #[diagnostic::do_not_recommend]
    impl __spec_p::NodeMut for Twice
    where
        for<'__spec_x> Batch<Vector<2>>: __spec_p::NodeMut,
        for<'__spec_x> Batch<Vector<2>>: __spec_p::NodeMut,
    {
        type ViewsMut<'__spec_a> = TwiceMapped<
            <Batch<Vector<2>> as __spec_p::NodeMut>::ViewsMut<'__spec_a>,
            <Batch<Vector<2>> as __spec_p::NodeMut>::ViewsMut<'__spec_a>,
        >
        where
            Self: '__spec_a;
        fn node_views_mut(
            &mut self,
            __spec_rows: __spec_p::core::ops::Range<usize>,
        ) -> Self::ViewsMut<'_> {
            let _ = &__spec_rows;
            TwiceMapped {
                a: <Batch<
                    Vector<2>,
                > as __spec_p::NodeMut>::node_views_mut(
                    &mut self.a,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                b: <Batch<
                    Vector<2>,
                > as __spec_p::NodeMut>::node_views_mut(
                    &mut self.b,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
            }
        }
    }
};
///The fields of [`Twice`], each made into something else: one type parameter per field, in field order. Generated by `#[derive(DataSpec)]`; filled with a framework's tensors by `MapSpec::map_spec` (see the `tensors` module of batchspec), with mutable views of some rows by `Dataset::rows_mut` and `Dataset::sample_mut`, and with views of a projection by `Projection::rows`.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
#[allow(dead_code)]
struct TwiceMapped<A, B> {
    ///The field `a` of [`Twice`], made into something else (a tensor, a view).
    a: A,
    ///The field `b` of [`Twice`], made into something else (a tensor, a view).
    b: B,
}
#[doc(hidden)]
#[allow(dead_code, unreachable_pub, non_camel_case_types)]
enum Twice·a {}
#[doc(hidden)]
#[allow(dead_code, unreachable_pub, non_camel_case_types)]
enum Twice·b {}
