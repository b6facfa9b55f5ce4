// The expansion of tests/expand/generic.rs; written by `BATCHSPEC_BLESS=1 cargo test`.
// tokens: 8549c6756b0e3357
// spans: ab751b2e046b8dc7
#[doc(hidden)]
#[allow(non_camel_case_types, unused_qualifications, clippy::all)]
const _: () = {
    use ::batchspec::__private as __spec_p;
    #[allow(dead_code)]
    fn __spec_fields()
    where
        Batch<Labels<3>>: __spec_p::SpecField,
        Null: __spec_p::SpecField,
    {}
    #[automatically_derived]
    #[diagnostic::do_not_recommend]
    impl<'a, S: Space, __SpecSrc> __spec_p::Node<__SpecSrc> for Generic<'a, S>
    where
        S: __spec_p::Space,
        BatchView<'a, S>: __spec_p::Node<__spec_p::Src<'x'>>,
        for<'__spec_w> Batch<Labels<3>>: __spec_p::Node<__spec_p::Src<'y'>>,
        for<'__spec_w> Null: __spec_p::Node<
            __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
        >,
    {
        type Spaces = (
            <BatchView<'a, S> as __spec_p::Node<__spec_p::Src<'x'>>>::Spaces,
            <Batch<Labels<3>> as __spec_p::Node<__spec_p::Src<'y'>>>::Spaces,
            <Null as __spec_p::Node<
                __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
            >>::Spaces,
        );
        type Sources = (
            <BatchView<'a, S> as __spec_p::Node<__spec_p::Src<'x'>>>::Sources,
            <Batch<Labels<3>> as __spec_p::Node<__spec_p::Src<'y'>>>::Sources,
            <Null as __spec_p::Node<
                __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
            >>::Sources,
        );
        type Leaves = __spec_p::LeafPair<
            <BatchView<'a, S> as __spec_p::Node<__spec_p::Src<'x'>>>::Leaves,
            __spec_p::LeafPair<
                <Batch<Labels<3>> as __spec_p::Node<__spec_p::Src<'y'>>>::Leaves,
                <Null as __spec_p::Node<
                    __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
                >>::Leaves,
            >,
        >;
        type Flat = __spec_p::Pair<
            <BatchView<'a, S> as __spec_p::Node<__spec_p::Src<'x'>>>::Flat,
            __spec_p::Pair<
                <Batch<Labels<3>> as __spec_p::Node<__spec_p::Src<'y'>>>::Flat,
                <Null as __spec_p::Node<
                    __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
                >>::Flat,
            >,
        >;
        type FlatRef<'__spec_a> = __spec_p::Pair<
            <BatchView<'a, S> as __spec_p::Node<__spec_p::Src<'x'>>>::FlatRef<'__spec_a>,
            __spec_p::Pair<
                <Batch<
                    Labels<3>,
                > as __spec_p::Node<__spec_p::Src<'y'>>>::FlatRef<'__spec_a>,
                <Null as __spec_p::Node<
                    __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
                >>::FlatRef<'__spec_a>,
            >,
        >
        where
            Self: '__spec_a;
        type FlatMut<'__spec_a> = __spec_p::Pair<
            <BatchView<'a, S> as __spec_p::Node<__spec_p::Src<'x'>>>::FlatMut<'__spec_a>,
            __spec_p::Pair<
                <Batch<
                    Labels<3>,
                > as __spec_p::Node<__spec_p::Src<'y'>>>::FlatMut<'__spec_a>,
                <Null as __spec_p::Node<
                    __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
                >>::FlatMut<'__spec_a>,
            >,
        >
        where
            Self: '__spec_a;
        type Mapped<__SpecT> = (
            <BatchView<'a, S> as __spec_p::Node<__spec_p::Src<'x'>>>::Mapped<__SpecT>,
            <Batch<Labels<3>> as __spec_p::Node<__spec_p::Src<'y'>>>::Mapped<__SpecT>,
            <Null as __spec_p::Node<
                __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
            >>::Mapped<__SpecT>,
        );
        type Views<'__spec_a> = GenericMapped<
            <BatchView<'a, S> as __spec_p::Node<__spec_p::Src<'x'>>>::Views<'__spec_a>,
            <Batch<Labels<3>> as __spec_p::Node<__spec_p::Src<'y'>>>::Views<'__spec_a>,
            <Null as __spec_p::Node<
                __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
            >>::Views<'__spec_a>,
        >
        where
            Self: '__spec_a;
        const LEAVES: usize = 0
            + <BatchView<'a, S> as __spec_p::Node<__spec_p::Src<'x'>>>::LEAVES
            + <Batch<Labels<3>> as __spec_p::Node<__spec_p::Src<'y'>>>::LEAVES
            + <Null as __spec_p::Node<
                __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
            >>::LEAVES;
        const TOTAL: __spec_p::core::option::Option<usize> = __spec_p::__add_features(
            <BatchView<'a, S> as __spec_p::Node<__spec_p::Src<'x'>>>::TOTAL,
            __spec_p::__add_features(
                <Batch<Labels<3>> as __spec_p::Node<__spec_p::Src<'y'>>>::TOTAL,
                __spec_p::__add_features(
                    <Null as __spec_p::Node<
                        __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
                    >>::TOTAL,
                    __spec_p::core::option::Option::Some(0usize),
                ),
            ),
        );
        fn describe_node(
            __spec_batch: usize,
            __spec_path: &__spec_p::Path<'_>,
            __spec_out: &mut __spec_p::Vec<__spec_p::Described>,
        ) {
            <BatchView<
                'a,
                S,
            > as __spec_p::Node<
                __spec_p::Src<'x'>,
            >>::describe_node(
                __spec_batch,
                &__spec_p::Path::Field(__spec_path, "x"),
                __spec_out,
            );
            <Batch<
                Labels<3>,
            > as __spec_p::Node<
                __spec_p::Src<'y'>,
            >>::describe_node(
                __spec_batch,
                &__spec_p::Path::Field(__spec_path, "y"),
                __spec_out,
            );
            <Null as __spec_p::Node<
                __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
            >>::describe_node(
                __spec_batch,
                &__spec_p::Path::Field(__spec_path, "penalty"),
                __spec_out,
            );
        }
        fn check_node(
            &self,
            __spec_path: &__spec_p::Path<'_>,
            __spec_sizes: &mut __spec_p::SizeCheck,
        ) -> __spec_p::core::result::Result<(), __spec_p::SpecError> {
            <BatchView<
                'a,
                S,
            > as __spec_p::Node<
                __spec_p::Src<'x'>,
            >>::check_node(
                &self.x,
                &__spec_p::Path::Field(__spec_path, "x"),
                __spec_sizes,
            )?;
            <Batch<
                Labels<3>,
            > as __spec_p::Node<
                __spec_p::Src<'y'>,
            >>::check_node(
                &self.y,
                &__spec_p::Path::Field(__spec_path, "y"),
                __spec_sizes,
            )?;
            <Null as __spec_p::Node<
                __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
            >>::check_node(
                &self.penalty,
                &__spec_p::Path::Field(__spec_path, "penalty"),
                __spec_sizes,
            )?;
            __spec_p::core::result::Result::Ok(())
        }
        #[inline(always)]
        fn node_flatten(self) -> Self::Flat {
            __spec_p::Pair {
                first: <BatchView<
                    'a,
                    S,
                > as __spec_p::Node<__spec_p::Src<'x'>>>::node_flatten(self.x),
                second: __spec_p::Pair {
                    first: <Batch<
                        Labels<3>,
                    > as __spec_p::Node<__spec_p::Src<'y'>>>::node_flatten(self.y),
                    second: <Null as __spec_p::Node<
                        __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
                    >>::node_flatten(self.penalty),
                },
            }
        }
        #[inline(always)]
        fn node_nest(__spec_flat: Self::Flat) -> Self {
            let __spec_p::Pair {
                first: __spec_part0,
                second: __spec_p::Pair { first: __spec_part1, second: __spec_part2 },
            } = __spec_flat;
            Self {
                x: <BatchView<
                    'a,
                    S,
                > as __spec_p::Node<__spec_p::Src<'x'>>>::node_nest(__spec_part0),
                y: <Batch<
                    Labels<3>,
                > as __spec_p::Node<__spec_p::Src<'y'>>>::node_nest(__spec_part1),
                penalty: <Null as __spec_p::Node<
                    __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
                >>::node_nest(__spec_part2),
            }
        }
        #[inline(always)]
        fn node_flatten_ref(&self) -> Self::FlatRef<'_> {
            __spec_p::Pair {
                first: <BatchView<
                    'a,
                    S,
                > as __spec_p::Node<__spec_p::Src<'x'>>>::node_flatten_ref(&self.x),
                second: __spec_p::Pair {
                    first: <Batch<
                        Labels<3>,
                    > as __spec_p::Node<__spec_p::Src<'y'>>>::node_flatten_ref(&self.y),
                    second: <Null as __spec_p::Node<
                        __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
                    >>::node_flatten_ref(&self.penalty),
                },
            }
        }
        #[inline(always)]
        fn node_flatten_mut(&mut self) -> Self::FlatMut<'_> {
            __spec_p::Pair {
                first: <BatchView<
                    'a,
                    S,
                > as __spec_p::Node<__spec_p::Src<'x'>>>::node_flatten_mut(&mut self.x),
                second: __spec_p::Pair {
                    first: <Batch<
                        Labels<3>,
                    > as __spec_p::Node<
                        __spec_p::Src<'y'>,
                    >>::node_flatten_mut(&mut self.y),
                    second: <Null as __spec_p::Node<
                        __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
                    >>::node_flatten_mut(&mut self.penalty),
                },
            }
        }
        fn node_views(
            &self,
            __spec_rows: __spec_p::core::ops::Range<usize>,
        ) -> Self::Views<'_> {
            let _ = &__spec_rows;
            GenericMapped {
                x: <BatchView<
                    'a,
                    S,
                > as __spec_p::Node<
                    __spec_p::Src<'x'>,
                >>::node_views(
                    &self.x,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                y: <Batch<
                    Labels<3>,
                > as __spec_p::Node<
                    __spec_p::Src<'y'>,
                >>::node_views(
                    &self.y,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                penalty: <Null as __spec_p::Node<
                    __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
                >>::node_views(
                    &self.penalty,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
            }
        }
        fn node_nest_mapped<__SpecT, __SpecN: __spec_p::core::ops::FnMut() -> __SpecT>(
            __spec_next: &mut __SpecN,
        ) -> Self::Mapped<__SpecT> {
            let _ = &__spec_next;
            (
                <BatchView<
                    'a,
                    S,
                > as __spec_p::Node<__spec_p::Src<'x'>>>::node_nest_mapped(__spec_next),
                <Batch<
                    Labels<3>,
                > as __spec_p::Node<__spec_p::Src<'y'>>>::node_nest_mapped(__spec_next),
                <Null as __spec_p::Node<
                    __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
                >>::node_nest_mapped(__spec_next),
            )
        }
        fn node_flatten_mapped<__SpecT, __SpecV: __spec_p::core::ops::FnMut(__SpecT)>(
            __spec_mapped: Self::Mapped<__SpecT>,
            __spec_visit: &mut __SpecV,
        ) {
            let _ = (&__spec_mapped, &__spec_visit);
            <BatchView<
                'a,
                S,
            > as __spec_p::Node<
                __spec_p::Src<'x'>,
            >>::node_flatten_mapped(__spec_mapped.0, __spec_visit);
            <Batch<
                Labels<3>,
            > as __spec_p::Node<
                __spec_p::Src<'y'>,
            >>::node_flatten_mapped(__spec_mapped.1, __spec_visit);
            <Null as __spec_p::Node<
                __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
            >>::node_flatten_mapped(__spec_mapped.2, __spec_visit);
        }
    }
    #[automatically_derived]
    impl<'a, S: Space> __spec_p::DataSpec for Generic<'a, S>
    where
        S: __spec_p::Space,
        BatchView<'a, S>: __spec_p::Node<__spec_p::Src<'x'>>,
        for<'__spec_w> Batch<Labels<3>>: __spec_p::Node<__spec_p::Src<'y'>>,
        for<'__spec_w> Null: __spec_p::Node<
            __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
        >,
    {}
    impl<'a, S: Space> __spec_p::HasSource<__spec_p::Src<'x'>> for Generic<'a, S>
    where
        for<'__spec_x> BatchView<'a, S>: __spec_p::LeafField,
        S: __spec_p::Space,
        BatchView<'a, S>: __spec_p::Node<__spec_p::Src<'x'>>,
        for<'__spec_w> Batch<Labels<3>>: __spec_p::Node<__spec_p::Src<'y'>>,
        for<'__spec_w> Null: __spec_p::Node<
            __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
        >,
    {
        type Space = <BatchView<'a, S> as __spec_p::LeafField>::Space;
        type Field = BatchView<'a, S>;
        #[inline]
        fn source_view(&self) -> __spec_p::SourceView<'_, Self::Space> {
            <BatchView<'a, S> as __spec_p::LeafField>::leaf_field_view(&self.x)
        }
        #[inline]
        fn source_field(&self) -> &Self::Field {
            &self.x
        }
    }
    impl<'a, S: Space, __SpecF> __spec_p::HasSourceAs<__spec_p::Src<'x'>, __SpecF>
    for Generic<'a, S>
    where
        S: __spec_p::Space,
        BatchView<'a, S>: __spec_p::Node<__spec_p::Src<'x'>>,
        for<'__spec_w> Batch<Labels<3>>: __spec_p::Node<__spec_p::Src<'y'>>,
        for<'__spec_w> Null: __spec_p::Node<
            __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
        >,
    {
        type Space = <Self as __spec_p::HasSource<__spec_p::Src<'x'>>>::Space;
        type Field = <Self as __spec_p::HasSource<__spec_p::Src<'x'>>>::Field;
        #[inline]
        fn source_view_as(&self) -> __spec_p::SourceView<'_, Self::Space> {
            <Self as __spec_p::HasSource<__spec_p::Src<'x'>>>::source_view(self)
        }
        #[inline]
        fn source_field_as(&self) -> &Self::Field {
            <Self as __spec_p::HasSource<__spec_p::Src<'x'>>>::source_field(self)
        }
    }
    impl<'a, S: Space> __spec_p::HasSource<__spec_p::Src<'y'>> for Generic<'a, S>
    where
        for<'__spec_x> Batch<Labels<3>>: __spec_p::LeafField,
        S: __spec_p::Space,
        BatchView<'a, S>: __spec_p::Node<__spec_p::Src<'x'>>,
        for<'__spec_w> Batch<Labels<3>>: __spec_p::Node<__spec_p::Src<'y'>>,
        for<'__spec_w> Null: __spec_p::Node<
            __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
        >,
    {
        type Space = <Batch<Labels<3>> as __spec_p::LeafField>::Space;
        type Field = Batch<Labels<3>>;
        #[inline]
        fn source_view(&self) -> __spec_p::SourceView<'_, Self::Space> {
            <Batch<Labels<3>> as __spec_p::LeafField>::leaf_field_view(&self.y)
        }
        #[inline]
        fn source_field(&self) -> &Self::Field {
            &self.y
        }
    }
    impl<'a, S: Space, __SpecF> __spec_p::HasSourceAs<__spec_p::Src<'y'>, __SpecF>
    for Generic<'a, S>
    where
        S: __spec_p::Space,
        BatchView<'a, S>: __spec_p::Node<__spec_p::Src<'x'>>,
        for<'__spec_w> Batch<Labels<3>>: __spec_p::Node<__spec_p::Src<'y'>>,
        for<'__spec_w> Null: __spec_p::Node<
            __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
        >,
    {
        type Space = <Self as __spec_p::HasSource<__spec_p::Src<'y'>>>::Space;
        type Field = <Self as __spec_p::HasSource<__spec_p::Src<'y'>>>::Field;
        #[inline]
        fn source_view_as(&self) -> __spec_p::SourceView<'_, Self::Space> {
            <Self as __spec_p::HasSource<__spec_p::Src<'y'>>>::source_view(self)
        }
        #[inline]
        fn source_field_as(&self) -> &Self::Field {
            <Self as __spec_p::HasSource<__spec_p::Src<'y'>>>::source_field(self)
        }
    }
    impl __spec_p::FieldSource for Generic·x {
        type Key = __spec_p::Src<'x'>;
        type Family = ();
    }
    impl __spec_p::FieldSource for Generic·y {
        type Key = __spec_p::Src<'y'>;
        type Family = __spec_p::FamilyOf<Batch<Labels<3>>>;
    }
    impl<'a, S: Space, R> __spec_p::ProjectFrom<R> for Generic<'a, S>
    where
        S: __spec_p::Space,
        BatchView<'a, S>: __spec_p::Node<__spec_p::Src<'x'>>,
        for<'__spec_w> Batch<Labels<3>>: __spec_p::Node<__spec_p::Src<'y'>>,
        for<'__spec_w> Null: __spec_p::Node<
            __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
        >,
        Generic·x: __spec_p::SourceServedBy<R>,
        <Generic·x as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::LendsAs<<BatchView<'a, S> as __spec_p::LeafField>::Space>,
        for<'__spec_x> <Generic·x as __spec_p::SourceServedBy<
            R,
        >>::Field: __spec_p::ProjectAs<'__spec_x, BatchView<'a, S>>,
        Generic·y: __spec_p::SourceServedBy<R>,
        <Generic·y as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::LendsAs<<Batch<Labels<3>> as __spec_p::LeafField>::Space>,
        for<'__spec_x> <Generic·y as __spec_p::SourceServedBy<
            R,
        >>::Field: __spec_p::ProjectAs<'__spec_x, Batch<Labels<3>>>,
    {
        type Views<'__spec_a> = GenericMapped<
            <<Generic·x as __spec_p::SourceServedBy<
                R,
            >>::Field as __spec_p::ProjectAs<'__spec_a, BatchView<'a, S>>>::View,
            <<Generic·y as __spec_p::SourceServedBy<
                R,
            >>::Field as __spec_p::ProjectAs<'__spec_a, Batch<Labels<3>>>>::View,
            __spec_p::Null,
        >
        where
            R: '__spec_a;
        fn project_rows(
            __spec_record: &R,
            __spec_rows: __spec_p::core::ops::Range<usize>,
        ) -> Self::Views<'_> {
            let _ = (&__spec_record, &__spec_rows);
            GenericMapped {
                x: <<Generic·x as __spec_p::SourceServedBy<
                    R,
                >>::Field as __spec_p::ProjectAs<
                    '_,
                    BatchView<'a, S>,
                >>::project(
                    <<Generic·x as __spec_p::SourceServedBy<
                        R,
                    >>::Via as __spec_p::SourceOf<R>>::field(__spec_record),
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                y: <<Generic·y as __spec_p::SourceServedBy<
                    R,
                >>::Field as __spec_p::ProjectAs<
                    '_,
                    Batch<Labels<3>>,
                >>::project(
                    <<Generic·y as __spec_p::SourceServedBy<
                        R,
                    >>::Via as __spec_p::SourceOf<R>>::field(__spec_record),
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                penalty: __spec_p::Null,
            }
        }
    }
    impl<'a, S: Space, R> __spec_p::Reads<R> for Generic<'a, S>
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        S: __spec_p::Space,
        BatchView<'a, S>: __spec_p::Node<__spec_p::Src<'x'>>,
        for<'__spec_w> Batch<Labels<3>>: __spec_p::Node<__spec_p::Src<'y'>>,
        for<'__spec_w> Null: __spec_p::Node<
            __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
        >,
        Generic·x: __spec_p::SourceServedBy<R>,
        <Generic·x as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<<BatchView<'a, S> as __spec_p::LeafField>::Space>,
        Generic·y: __spec_p::SourceServedBy<R>,
        <Generic·y as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<<Batch<Labels<3>> as __spec_p::LeafField>::Space>,
    {}
    impl<'a, S: Space, R> __spec_p::ServeFrom<R> for Generic<'a, S>
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        S: __spec_p::Space,
        BatchView<'a, S>: __spec_p::Node<__spec_p::Src<'x'>>,
        for<'__spec_w> Batch<Labels<3>>: __spec_p::Node<__spec_p::Src<'y'>>,
        for<'__spec_w> Null: __spec_p::Node<
            __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
        >,
        Generic·x: __spec_p::SourceServedBy<R>,
        <Generic·x as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<<BatchView<'a, S> as __spec_p::LeafField>::Space>,
        for<'__spec_x> BatchView<
            'a,
            S,
        >: __spec_p::FromShared<<BatchView<'a, S> as __spec_p::LeafField>::Space>,
        Generic·y: __spec_p::SourceServedBy<R>,
        <Generic·y as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<<Batch<Labels<3>> as __spec_p::LeafField>::Space>,
        for<'__spec_x> Batch<
            Labels<3>,
        >: __spec_p::FromShared<<Batch<Labels<3>> as __spec_p::LeafField>::Space>,
    {
        fn serve_from(
            __spec_record: &R,
            __spec_cache: &mut __spec_p::ServeCache,
        ) -> Self {
            let _ = (&__spec_record, &__spec_cache);
            Self {
                x: <BatchView<
                    'a,
                    S,
                > as __spec_p::FromShared<
                    <BatchView<'a, S> as __spec_p::LeafField>::Space,
                >>::from_shared(
                    <__spec_p::LeafVia<
                        __spec_p::Src<'x'>,
                    > as __spec_p::LeafConvert<
                        <Generic·x as __spec_p::SourceServedBy<R>>::Space,
                        <BatchView<'a, S> as __spec_p::LeafField>::Space,
                    >>::serve(
                        <<Generic·x as __spec_p::SourceServedBy<
                            R,
                        >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                        __spec_cache,
                    ),
                ),
                y: <Batch<
                    Labels<3>,
                > as __spec_p::FromShared<
                    <Batch<Labels<3>> as __spec_p::LeafField>::Space,
                >>::from_shared(
                    <__spec_p::LeafVia<
                        __spec_p::Src<'y'>,
                    > as __spec_p::LeafConvert<
                        <Generic·y as __spec_p::SourceServedBy<R>>::Space,
                        <Batch<Labels<3>> as __spec_p::LeafField>::Space,
                    >>::serve(
                        <<Generic·y as __spec_p::SourceServedBy<
                            R,
                        >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                        __spec_cache,
                    ),
                ),
                penalty: __spec_p::Null,
            }
        }
    }
    impl<'a, S: Space, R> __spec_p::GatherFrom<R> for Generic<'a, S>
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        S: __spec_p::Space,
        BatchView<'a, S>: __spec_p::Node<__spec_p::Src<'x'>>,
        for<'__spec_w> Batch<Labels<3>>: __spec_p::Node<__spec_p::Src<'y'>>,
        for<'__spec_w> Null: __spec_p::Node<
            __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
        >,
        Generic·x: __spec_p::SourceServedBy<R>,
        <Generic·x as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<<BatchView<'a, S> as __spec_p::LeafField>::Space>,
        for<'__spec_x> BatchView<
            'a,
            S,
        >: __spec_p::GatherInto<<BatchView<'a, S> as __spec_p::LeafField>::Space>,
        Generic·y: __spec_p::SourceServedBy<R>,
        <Generic·y as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<<Batch<Labels<3>> as __spec_p::LeafField>::Space>,
        for<'__spec_x> Batch<
            Labels<3>,
        >: __spec_p::GatherInto<<Batch<Labels<3>> as __spec_p::LeafField>::Space>,
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
            let __spec_collate_x = &__spec_p::Collate::DEFAULT;
            <__spec_p::LeafVia<
                __spec_p::Src<'x'>,
            > as __spec_p::LeafConvert<
                <Generic·x as __spec_p::SourceServedBy<R>>::Space,
                <BatchView<'a, S> as __spec_p::LeafField>::Space,
            >>::gather(
                <<Generic·x as __spec_p::SourceServedBy<
                    R,
                >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                __spec_rows,
                __spec_p::core::clone::Clone::clone(&__spec_zero),
                &mut __spec_out.x,
                __spec_collate_x,
            )?;
            let __spec_collate_y = &__spec_p::Collate::DEFAULT;
            <__spec_p::LeafVia<
                __spec_p::Src<'y'>,
            > as __spec_p::LeafConvert<
                <Generic·y as __spec_p::SourceServedBy<R>>::Space,
                <Batch<Labels<3>> as __spec_p::LeafField>::Space,
            >>::gather(
                <<Generic·y as __spec_p::SourceServedBy<
                    R,
                >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                __spec_rows,
                __spec_p::core::clone::Clone::clone(&__spec_zero),
                &mut __spec_out.y,
                __spec_collate_y,
            )?;
            __spec_p::core::result::Result::Ok(())
        }
        fn check_fits(
            __spec_record: &R,
        ) -> __spec_p::core::result::Result<(), __spec_p::DataError> {
            let _ = &__spec_record;
            let __spec_collate_x = &__spec_p::Collate::DEFAULT;
            <__spec_p::LeafVia<
                __spec_p::Src<'x'>,
            > as __spec_p::LeafConvert<
                <Generic·x as __spec_p::SourceServedBy<R>>::Space,
                <BatchView<'a, S> as __spec_p::LeafField>::Space,
            >>::fits(
                <<Generic·x as __spec_p::SourceServedBy<
                    R,
                >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                __spec_collate_x,
            )?;
            let __spec_collate_y = &__spec_p::Collate::DEFAULT;
            <__spec_p::LeafVia<
                __spec_p::Src<'y'>,
            > as __spec_p::LeafConvert<
                <Generic·y as __spec_p::SourceServedBy<R>>::Space,
                <Batch<Labels<3>> as __spec_p::LeafField>::Space,
            >>::fits(
                <<Generic·y as __spec_p::SourceServedBy<
                    R,
                >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                __spec_collate_y,
            )?;
            __spec_p::core::result::Result::Ok(())
        }
    }
    impl<'a, S: Space, R> __spec_p::ProvidedBy<R> for Generic<'a, S>
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        S: __spec_p::Space,
        BatchView<'a, S>: __spec_p::Node<__spec_p::Src<'x'>>,
        for<'__spec_w> Batch<Labels<3>>: __spec_p::Node<__spec_p::Src<'y'>>,
        for<'__spec_w> Null: __spec_p::Node<
            __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
        >,
        Self: __spec_p::GatherFrom<R>,
        for<'__spec_x> <Self as __spec_p::Node<()>>::Flat: __spec_p::AllocFlat,
    {}
    impl<'a, S: Space> __spec_p::GatherSame for Generic<'a, S>
    where
        S: __spec_p::Space,
        BatchView<'a, S>: __spec_p::Node<__spec_p::Src<'x'>>,
        for<'__spec_w> Batch<Labels<3>>: __spec_p::Node<__spec_p::Src<'y'>>,
        for<'__spec_w> Null: __spec_p::Node<
            __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
        >,
        for<'__spec_x> BatchView<'a, S>: __spec_p::GatherSame,
        for<'__spec_x> Batch<Labels<3>>: __spec_p::GatherSame,
        for<'__spec_x> Null: __spec_p::GatherSame,
    {
        fn gather_same(
            __spec_out: &mut Self,
            __spec_from: &Self,
            __spec_rows: &[usize],
            __spec_at: usize,
        ) {
            let _ = (&__spec_out, &__spec_from, &__spec_rows, &__spec_at);
            <BatchView<
                'a,
                S,
            > as __spec_p::GatherSame>::gather_same(
                &mut __spec_out.x,
                &__spec_from.x,
                __spec_rows,
                __spec_at,
            );
            <Batch<
                Labels<3>,
            > as __spec_p::GatherSame>::gather_same(
                &mut __spec_out.y,
                &__spec_from.y,
                __spec_rows,
                __spec_at,
            );
            <Null as __spec_p::GatherSame>::gather_same(
                &mut __spec_out.penalty,
                &__spec_from.penalty,
                __spec_rows,
                __spec_at,
            );
        }
    }
    impl<'a, S: Space> __spec_p::LoadRecord for Generic<'a, S>
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        S: __spec_p::Space,
        BatchView<'a, S>: __spec_p::Node<__spec_p::Src<'x'>>,
        for<'__spec_w> Batch<Labels<3>>: __spec_p::Node<__spec_p::Src<'y'>>,
        for<'__spec_w> Null: __spec_p::Node<
            __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
        >,
        for<'__spec_x> __spec_p::BorrowedBatch: __spec_p::LoadableBatch,
        for<'__spec_x> Batch<Labels<3>>: __spec_p::LoadField,
        for<'__spec_x> Null: __spec_p::LoadField,
    {
        #[allow(unreachable_code)]
        fn load_record<__SpecL: __spec_p::LeafSource>(
            __spec_source: &mut __SpecL,
            __spec_leaves: &mut __spec_p::core::slice::Iter<'_, __spec_p::Described>,
        ) -> __spec_p::core::result::Result<Self, __SpecL::Error> {
            let _ = (&__spec_source, &__spec_leaves);
            __spec_p::core::result::Result::Ok(Self {
                x: match <__spec_p::BorrowedBatch as __spec_p::LoadField>::load_field(
                    __spec_source,
                    __spec_leaves,
                )? {},
                y: <Batch<
                    Labels<3>,
                > as __spec_p::LoadField>::load_field(__spec_source, __spec_leaves)?,
                penalty: <Null as __spec_p::LoadField>::load_field(
                    __spec_source,
                    __spec_leaves,
                )?,
            })
        }
    }
    impl<'a, S: Space, R, __SpecK> __spec_p::ReadField<R, __SpecK> for Generic<'a, S>
    where
        for<'__spec_x> Self: __spec_p::Reads<R>,
        S: __spec_p::Space,
        BatchView<'a, S>: __spec_p::Node<__spec_p::Src<'x'>>,
        for<'__spec_w> Batch<Labels<3>>: __spec_p::Node<__spec_p::Src<'y'>>,
        for<'__spec_w> Null: __spec_p::Node<
            __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
        >,
    {}
    impl<'a, S: Space, R, __SpecK> __spec_p::ServeField<R, __SpecK> for Generic<'a, S>
    where
        for<'__spec_x> Self: __spec_p::ServeFrom<R>,
        S: __spec_p::Space,
        BatchView<'a, S>: __spec_p::Node<__spec_p::Src<'x'>>,
        for<'__spec_w> Batch<Labels<3>>: __spec_p::Node<__spec_p::Src<'y'>>,
        for<'__spec_w> Null: __spec_p::Node<
            __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
        >,
    {
        fn serve_field(
            __spec_record: &R,
            __spec_cache: &mut __spec_p::ServeCache,
        ) -> Self {
            <Self as __spec_p::ServeFrom<R>>::serve_from(__spec_record, __spec_cache)
        }
    }
    impl<'a, S: Space, R, __SpecK> __spec_p::GatherField<R, __SpecK> for Generic<'a, S>
    where
        for<'__spec_x> Self: __spec_p::GatherFrom<R>,
        S: __spec_p::Space,
        BatchView<'a, S>: __spec_p::Node<__spec_p::Src<'x'>>,
        for<'__spec_w> Batch<Labels<3>>: __spec_p::Node<__spec_p::Src<'y'>>,
        for<'__spec_w> Null: __spec_p::Node<
            __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
        >,
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
    impl<'a, S: Space, M: __spec_p::LeafMapper> __spec_p::MapSpec<M> for Generic<'a, S>
    where
        S: __spec_p::Space,
        BatchView<'a, S>: __spec_p::Node<__spec_p::Src<'x'>>,
        for<'__spec_w> Batch<Labels<3>>: __spec_p::Node<__spec_p::Src<'y'>>,
        for<'__spec_w> Null: __spec_p::Node<
            __spec_p::Src<'p', 'e', 'n', 'a', 'l', 't', 'y'>,
        >,
        BatchView<'a, S>: __spec_p::MapSpec<M>,
        Batch<Labels<3>>: __spec_p::MapSpec<M>,
        Null: __spec_p::MapSpec<M>,
    {
        type Out = GenericMapped<
            <BatchView<'a, S> as __spec_p::MapSpec<M>>::Out,
            <Batch<Labels<3>> as __spec_p::MapSpec<M>>::Out,
            <Null as __spec_p::MapSpec<M>>::Out,
        >;
        fn map_spec(
            self,
            __spec_mapper: &mut M,
        ) -> __spec_p::core::result::Result<
            Self::Out,
            <M as __spec_p::LeafMapper>::Error,
        > {
            let _ = &__spec_mapper;
            __spec_p::core::result::Result::Ok(GenericMapped {
                x: <BatchView<
                    'a,
                    S,
                > as __spec_p::MapSpec<M>>::map_spec(self.x, __spec_mapper)?,
                y: <Batch<
                    Labels<3>,
                > as __spec_p::MapSpec<M>>::map_spec(self.y, __spec_mapper)?,
                penalty: <Null as __spec_p::MapSpec<
                    M,
                >>::map_spec(self.penalty, __spec_mapper)?,
            })
        }
    }
};
///The fields of [`Generic`], each made into something else: one type parameter per field, in field order. Generated by `#[derive(DataSpec)]`; filled with a framework's tensors by `MapSpec::map_spec` (see the `tensors` module of batchspec), with mutable views of some rows by `Dataset::rows_mut` and `Dataset::sample_mut`, and with views of a projection by `Projection::rows`.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
#[allow(dead_code)]
struct GenericMapped<X, Y, Penalty> {
    ///The field `x` of [`Generic`], made into something else (a tensor, a view).
    x: X,
    ///The field `y` of [`Generic`], made into something else (a tensor, a view).
    y: Y,
    ///The field `penalty` of [`Generic`], made into something else (a tensor, a view).
    penalty: Penalty,
}
#[doc(hidden)]
#[allow(dead_code, unreachable_pub, non_camel_case_types)]
enum Generic·x {}
#[doc(hidden)]
#[allow(dead_code, unreachable_pub, non_camel_case_types)]
enum Generic·y {}
#[doc(hidden)]
#[allow(dead_code, unreachable_pub, non_camel_case_types)]
enum Generic·penalty {}
