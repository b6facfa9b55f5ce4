// The expansion of tests/expand/request.rs; written by `BATCHSPEC_BLESS=1 cargo test`.
// tokens: 4fe8cc34db3dbafa
// spans: aeba7fdc89fa84ed
#[doc(hidden)]
#[allow(non_camel_case_types, unused_qualifications, clippy::all)]
const _: () = {
    use ::batchspec::__private as __spec_p;
    #[allow(dead_code)]
    fn __spec_fields()
    where
        Batch<Image<2, 2, 3, 12, BCHW, f32>>: __spec_p::SpecField,
        Batch<Vector<3>>: __spec_p::SpecField,
    {}
    #[automatically_derived]
    #[diagnostic::do_not_recommend]
    impl<__SpecSrc> __spec_p::Node<__SpecSrc> for Request
    where
        for<'__spec_w> Batch<
            Image<2, 2, 3, 12, BCHW, f32>,
        >: __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>,
        for<'__spec_w> Batch<Vector<3>>: __spec_p::Node<__spec_p::Src<'y'>>,
    {
        type Spaces = (
            <Batch<
                Image<2, 2, 3, 12, BCHW, f32>,
            > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::Spaces,
            <Batch<Vector<3>> as __spec_p::Node<__spec_p::Src<'y'>>>::Spaces,
        );
        type Sources = (
            <Batch<
                Image<2, 2, 3, 12, BCHW, f32>,
            > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::Sources,
            <Batch<Vector<3>> as __spec_p::Node<__spec_p::Src<'y'>>>::Sources,
        );
        type Leaves = __spec_p::LeafPair<
            <Batch<
                Image<2, 2, 3, 12, BCHW, f32>,
            > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::Leaves,
            <Batch<Vector<3>> as __spec_p::Node<__spec_p::Src<'y'>>>::Leaves,
        >;
        type Flat = __spec_p::Pair<
            <Batch<
                Image<2, 2, 3, 12, BCHW, f32>,
            > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::Flat,
            <Batch<Vector<3>> as __spec_p::Node<__spec_p::Src<'y'>>>::Flat,
        >;
        type FlatRef<'__spec_a> = __spec_p::Pair<
            <Batch<
                Image<2, 2, 3, 12, BCHW, f32>,
            > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::FlatRef<'__spec_a>,
            <Batch<Vector<3>> as __spec_p::Node<__spec_p::Src<'y'>>>::FlatRef<'__spec_a>,
        >
        where
            Self: '__spec_a;
        type FlatMut<'__spec_a> = __spec_p::Pair<
            <Batch<
                Image<2, 2, 3, 12, BCHW, f32>,
            > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::FlatMut<'__spec_a>,
            <Batch<Vector<3>> as __spec_p::Node<__spec_p::Src<'y'>>>::FlatMut<'__spec_a>,
        >
        where
            Self: '__spec_a;
        type Mapped<__SpecT> = (
            <Batch<
                Image<2, 2, 3, 12, BCHW, f32>,
            > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::Mapped<__SpecT>,
            <Batch<Vector<3>> as __spec_p::Node<__spec_p::Src<'y'>>>::Mapped<__SpecT>,
        );
        type Views<'__spec_a> = RequestMapped<
            <Batch<
                Image<2, 2, 3, 12, BCHW, f32>,
            > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::Views<'__spec_a>,
            <Batch<Vector<3>> as __spec_p::Node<__spec_p::Src<'y'>>>::Views<'__spec_a>,
        >
        where
            Self: '__spec_a;
        const LEAVES: usize = 0
            + <Batch<
                Image<2, 2, 3, 12, BCHW, f32>,
            > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::LEAVES
            + <Batch<Vector<3>> as __spec_p::Node<__spec_p::Src<'y'>>>::LEAVES;
        const TOTAL: __spec_p::core::option::Option<usize> = __spec_p::__add_features(
            <Batch<
                Image<2, 2, 3, 12, BCHW, f32>,
            > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::TOTAL,
            __spec_p::__add_features(
                <Batch<Vector<3>> as __spec_p::Node<__spec_p::Src<'y'>>>::TOTAL,
                __spec_p::core::option::Option::Some(0usize),
            ),
        );
        fn describe_node(
            __spec_batch: usize,
            __spec_path: &__spec_p::Path<'_>,
            __spec_out: &mut __spec_p::Vec<__spec_p::Described>,
        ) {
            <Batch<
                Image<2, 2, 3, 12, BCHW, f32>,
            > as __spec_p::Node<
                __spec_p::Src<'i', 'm', 'g'>,
            >>::describe_node(
                __spec_batch,
                &__spec_p::Path::Field(__spec_path, "image"),
                __spec_out,
            );
            <Batch<
                Vector<3>,
            > as __spec_p::Node<
                __spec_p::Src<'y'>,
            >>::describe_node(
                __spec_batch,
                &__spec_p::Path::Field(__spec_path, "label"),
                __spec_out,
            );
        }
        fn check_node(
            &self,
            __spec_path: &__spec_p::Path<'_>,
            __spec_sizes: &mut __spec_p::SizeCheck,
        ) -> __spec_p::core::result::Result<(), __spec_p::SpecError> {
            <Batch<
                Image<2, 2, 3, 12, BCHW, f32>,
            > as __spec_p::Node<
                __spec_p::Src<'i', 'm', 'g'>,
            >>::check_node(
                &self.image,
                &__spec_p::Path::Field(__spec_path, "image"),
                __spec_sizes,
            )?;
            <Batch<
                Vector<3>,
            > as __spec_p::Node<
                __spec_p::Src<'y'>,
            >>::check_node(
                &self.label,
                &__spec_p::Path::Field(__spec_path, "label"),
                __spec_sizes,
            )?;
            __spec_p::core::result::Result::Ok(())
        }
        #[inline(always)]
        fn node_flatten(self) -> Self::Flat {
            __spec_p::Pair {
                first: <Batch<
                    Image<2, 2, 3, 12, BCHW, f32>,
                > as __spec_p::Node<
                    __spec_p::Src<'i', 'm', 'g'>,
                >>::node_flatten(self.image),
                second: <Batch<
                    Vector<3>,
                > as __spec_p::Node<__spec_p::Src<'y'>>>::node_flatten(self.label),
            }
        }
        #[inline(always)]
        fn node_nest(__spec_flat: Self::Flat) -> Self {
            let __spec_p::Pair { first: __spec_part0, second: __spec_part1 } = __spec_flat;
            Self {
                image: <Batch<
                    Image<2, 2, 3, 12, BCHW, f32>,
                > as __spec_p::Node<
                    __spec_p::Src<'i', 'm', 'g'>,
                >>::node_nest(__spec_part0),
                label: <Batch<
                    Vector<3>,
                > as __spec_p::Node<__spec_p::Src<'y'>>>::node_nest(__spec_part1),
            }
        }
        #[inline(always)]
        fn node_flatten_ref(&self) -> Self::FlatRef<'_> {
            __spec_p::Pair {
                first: <Batch<
                    Image<2, 2, 3, 12, BCHW, f32>,
                > as __spec_p::Node<
                    __spec_p::Src<'i', 'm', 'g'>,
                >>::node_flatten_ref(&self.image),
                second: <Batch<
                    Vector<3>,
                > as __spec_p::Node<__spec_p::Src<'y'>>>::node_flatten_ref(&self.label),
            }
        }
        #[inline(always)]
        fn node_flatten_mut(&mut self) -> Self::FlatMut<'_> {
            __spec_p::Pair {
                first: <Batch<
                    Image<2, 2, 3, 12, BCHW, f32>,
                > as __spec_p::Node<
                    __spec_p::Src<'i', 'm', 'g'>,
                >>::node_flatten_mut(&mut self.image),
                second: <Batch<
                    Vector<3>,
                > as __spec_p::Node<
                    __spec_p::Src<'y'>,
                >>::node_flatten_mut(&mut self.label),
            }
        }
        fn node_views(
            &self,
            __spec_rows: __spec_p::core::ops::Range<usize>,
        ) -> Self::Views<'_> {
            let _ = &__spec_rows;
            RequestMapped {
                image: <Batch<
                    Image<2, 2, 3, 12, BCHW, f32>,
                > as __spec_p::Node<
                    __spec_p::Src<'i', 'm', 'g'>,
                >>::node_views(
                    &self.image,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                label: <Batch<
                    Vector<3>,
                > as __spec_p::Node<
                    __spec_p::Src<'y'>,
                >>::node_views(
                    &self.label,
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
                    Image<2, 2, 3, 12, BCHW, f32>,
                > as __spec_p::Node<
                    __spec_p::Src<'i', 'm', 'g'>,
                >>::node_nest_mapped(__spec_next),
                <Batch<
                    Vector<3>,
                > as __spec_p::Node<__spec_p::Src<'y'>>>::node_nest_mapped(__spec_next),
            )
        }
        fn node_flatten_mapped<__SpecT, __SpecV: __spec_p::core::ops::FnMut(__SpecT)>(
            __spec_mapped: Self::Mapped<__SpecT>,
            __spec_visit: &mut __SpecV,
        ) {
            let _ = (&__spec_mapped, &__spec_visit);
            <Batch<
                Image<2, 2, 3, 12, BCHW, f32>,
            > as __spec_p::Node<
                __spec_p::Src<'i', 'm', 'g'>,
            >>::node_flatten_mapped(__spec_mapped.0, __spec_visit);
            <Batch<
                Vector<3>,
            > as __spec_p::Node<
                __spec_p::Src<'y'>,
            >>::node_flatten_mapped(__spec_mapped.1, __spec_visit);
        }
    }
    #[automatically_derived]
    impl __spec_p::DataSpec for Request
    where
        for<'__spec_w> Batch<
            Image<2, 2, 3, 12, BCHW, f32>,
        >: __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>,
        for<'__spec_w> Batch<Vector<3>>: __spec_p::Node<__spec_p::Src<'y'>>,
    {}
    impl __spec_p::HasSource<__spec_p::Src<'i', 'm', 'g'>> for Request
    where
        for<'__spec_x> Batch<Image<2, 2, 3, 12, BCHW, f32>>: __spec_p::LeafField,
    {
        type Space = <Batch<
            Image<2, 2, 3, 12, BCHW, f32>,
        > as __spec_p::LeafField>::Space;
        type Field = Batch<Image<2, 2, 3, 12, BCHW, f32>>;
        #[inline]
        fn source_view(&self) -> __spec_p::SourceView<'_, Self::Space> {
            <Batch<
                Image<2, 2, 3, 12, BCHW, f32>,
            > as __spec_p::LeafField>::leaf_field_view(&self.image)
        }
        #[inline]
        fn source_field(&self) -> &Self::Field {
            &self.image
        }
    }
    impl<__SpecF> __spec_p::HasSourceAs<__spec_p::Src<'i', 'm', 'g'>, __SpecF>
    for Request {
        type Space = <Self as __spec_p::HasSource<__spec_p::Src<'i', 'm', 'g'>>>::Space;
        type Field = <Self as __spec_p::HasSource<__spec_p::Src<'i', 'm', 'g'>>>::Field;
        #[inline]
        fn source_view_as(&self) -> __spec_p::SourceView<'_, Self::Space> {
            <Self as __spec_p::HasSource<
                __spec_p::Src<'i', 'm', 'g'>,
            >>::source_view(self)
        }
        #[inline]
        fn source_field_as(&self) -> &Self::Field {
            <Self as __spec_p::HasSource<
                __spec_p::Src<'i', 'm', 'g'>,
            >>::source_field(self)
        }
    }
    impl __spec_p::HasSource<__spec_p::Src<'y'>> for Request
    where
        for<'__spec_x> Batch<Vector<3>>: __spec_p::LeafField,
    {
        type Space = <Batch<Vector<3>> as __spec_p::LeafField>::Space;
        type Field = Batch<Vector<3>>;
        #[inline]
        fn source_view(&self) -> __spec_p::SourceView<'_, Self::Space> {
            <Batch<Vector<3>> as __spec_p::LeafField>::leaf_field_view(&self.label)
        }
        #[inline]
        fn source_field(&self) -> &Self::Field {
            &self.label
        }
    }
    impl<__SpecF> __spec_p::HasSourceAs<__spec_p::Src<'y'>, __SpecF> for Request {
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
    impl __spec_p::FieldSource for Request·image {
        type Key = __spec_p::Src<'i', 'm', 'g'>;
        type Family = __spec_p::FamilyOf<Batch<Image<2, 2, 3, 12, BCHW, f32>>>;
    }
    impl __spec_p::FieldSource for Request·label {
        type Key = __spec_p::Src<'y'>;
        type Family = __spec_p::FamilyOf<Batch<Vector<3>>>;
    }
    impl<R> __spec_p::ProjectFrom<R> for Request
    where
        Request·image: __spec_p::SourceServedBy<R>,
        <Request·image as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::LendsAs<
            <Batch<Image<2, 2, 3, 12, BCHW, f32>> as __spec_p::LeafField>::Space,
        >,
        for<'__spec_x> <Request·image as __spec_p::SourceServedBy<
            R,
        >>::Field: __spec_p::ProjectAs<'__spec_x, Batch<Image<2, 2, 3, 12, BCHW, f32>>>,
        Request·label: __spec_p::SourceServedBy<R>,
        <Request·label as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::LendsAs<<Batch<Vector<3>> as __spec_p::LeafField>::Space>,
        for<'__spec_x> <Request·label as __spec_p::SourceServedBy<
            R,
        >>::Field: __spec_p::ProjectAs<'__spec_x, Batch<Vector<3>>>,
    {
        type Views<'__spec_a> = RequestMapped<
            <<Request·image as __spec_p::SourceServedBy<
                R,
            >>::Field as __spec_p::ProjectAs<
                '__spec_a,
                Batch<Image<2, 2, 3, 12, BCHW, f32>>,
            >>::View,
            <<Request·label as __spec_p::SourceServedBy<
                R,
            >>::Field as __spec_p::ProjectAs<'__spec_a, Batch<Vector<3>>>>::View,
        >
        where
            R: '__spec_a;
        fn project_rows(
            __spec_record: &R,
            __spec_rows: __spec_p::core::ops::Range<usize>,
        ) -> Self::Views<'_> {
            let _ = (&__spec_record, &__spec_rows);
            RequestMapped {
                image: <<Request·image as __spec_p::SourceServedBy<
                    R,
                >>::Field as __spec_p::ProjectAs<
                    '_,
                    Batch<Image<2, 2, 3, 12, BCHW, f32>>,
                >>::project(
                    <<Request·image as __spec_p::SourceServedBy<
                        R,
                    >>::Via as __spec_p::SourceOf<R>>::field(__spec_record),
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                label: <<Request·label as __spec_p::SourceServedBy<
                    R,
                >>::Field as __spec_p::ProjectAs<
                    '_,
                    Batch<Vector<3>>,
                >>::project(
                    <<Request·label as __spec_p::SourceServedBy<
                        R,
                    >>::Via as __spec_p::SourceOf<R>>::field(__spec_record),
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
            }
        }
    }
    impl<R> __spec_p::Reads<R> for Request
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        Request·image: __spec_p::SourceServedBy<R>,
        <Request·image as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<
            <Batch<Image<2, 2, 3, 12, BCHW, f32>> as __spec_p::LeafField>::Space,
        >,
        Request·label: __spec_p::SourceServedBy<R>,
        <Request·label as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<<Batch<Vector<3>> as __spec_p::LeafField>::Space>,
    {}
    impl<R> __spec_p::ServeFrom<R> for Request
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        Request·image: __spec_p::SourceServedBy<R>,
        <Request·image as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<
            <Batch<Image<2, 2, 3, 12, BCHW, f32>> as __spec_p::LeafField>::Space,
        >,
        for<'__spec_x> Batch<
            Image<2, 2, 3, 12, BCHW, f32>,
        >: __spec_p::FromShared<
            <Batch<Image<2, 2, 3, 12, BCHW, f32>> as __spec_p::LeafField>::Space,
        >,
        Request·label: __spec_p::SourceServedBy<R>,
        <Request·label as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<<Batch<Vector<3>> as __spec_p::LeafField>::Space>,
        for<'__spec_x> Batch<
            Vector<3>,
        >: __spec_p::FromShared<<Batch<Vector<3>> as __spec_p::LeafField>::Space>,
    {
        fn serve_from(
            __spec_record: &R,
            __spec_cache: &mut __spec_p::ServeCache,
        ) -> Self {
            let _ = (&__spec_record, &__spec_cache);
            Self {
                image: <Batch<
                    Image<2, 2, 3, 12, BCHW, f32>,
                > as __spec_p::FromShared<
                    <Batch<Image<2, 2, 3, 12, BCHW, f32>> as __spec_p::LeafField>::Space,
                >>::from_shared(
                    <__spec_p::LeafVia<
                        __spec_p::Src<'i', 'm', 'g'>,
                    > as __spec_p::LeafConvert<
                        <Request·image as __spec_p::SourceServedBy<R>>::Space,
                        <Batch<
                            Image<2, 2, 3, 12, BCHW, f32>,
                        > as __spec_p::LeafField>::Space,
                    >>::serve(
                        <<Request·image as __spec_p::SourceServedBy<
                            R,
                        >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                        __spec_cache,
                    ),
                ),
                label: <Batch<
                    Vector<3>,
                > as __spec_p::FromShared<
                    <Batch<Vector<3>> as __spec_p::LeafField>::Space,
                >>::from_shared(
                    <__spec_p::LeafVia<
                        __spec_p::Src<'y'>,
                    > as __spec_p::LeafConvert<
                        <Request·label as __spec_p::SourceServedBy<R>>::Space,
                        <Batch<Vector<3>> as __spec_p::LeafField>::Space,
                    >>::serve(
                        <<Request·label as __spec_p::SourceServedBy<
                            R,
                        >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                        __spec_cache,
                    ),
                ),
            }
        }
    }
    impl<R> __spec_p::GatherFrom<R> for Request
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        Request·image: __spec_p::SourceServedBy<R>,
        <Request·image as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<
            <Batch<Image<2, 2, 3, 12, BCHW, f32>> as __spec_p::LeafField>::Space,
        >,
        for<'__spec_x> Batch<
            Image<2, 2, 3, 12, BCHW, f32>,
        >: __spec_p::GatherInto<
            <Batch<Image<2, 2, 3, 12, BCHW, f32>> as __spec_p::LeafField>::Space,
        >,
        Request·label: __spec_p::SourceServedBy<R>,
        <Request·label as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<<Batch<Vector<3>> as __spec_p::LeafField>::Space>,
        for<'__spec_x> Batch<
            Vector<3>,
        >: __spec_p::GatherInto<<Batch<Vector<3>> as __spec_p::LeafField>::Space>,
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
            let __spec_collate_image = &__spec_p::Collate::DEFAULT;
            <__spec_p::LeafVia<
                __spec_p::Src<'i', 'm', 'g'>,
            > as __spec_p::LeafConvert<
                <Request·image as __spec_p::SourceServedBy<R>>::Space,
                <Batch<Image<2, 2, 3, 12, BCHW, f32>> as __spec_p::LeafField>::Space,
            >>::gather(
                <<Request·image as __spec_p::SourceServedBy<
                    R,
                >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                __spec_rows,
                __spec_p::core::clone::Clone::clone(&__spec_zero),
                &mut __spec_out.image,
                __spec_collate_image,
            )?;
            let __spec_collate_label = &__spec_p::Collate::DEFAULT;
            <__spec_p::LeafVia<
                __spec_p::Src<'y'>,
            > as __spec_p::LeafConvert<
                <Request·label as __spec_p::SourceServedBy<R>>::Space,
                <Batch<Vector<3>> as __spec_p::LeafField>::Space,
            >>::gather(
                <<Request·label as __spec_p::SourceServedBy<
                    R,
                >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                __spec_rows,
                __spec_p::core::clone::Clone::clone(&__spec_zero),
                &mut __spec_out.label,
                __spec_collate_label,
            )?;
            __spec_p::core::result::Result::Ok(())
        }
        fn check_fits(
            __spec_record: &R,
        ) -> __spec_p::core::result::Result<(), __spec_p::DataError> {
            let _ = &__spec_record;
            let __spec_collate_image = &__spec_p::Collate::DEFAULT;
            <__spec_p::LeafVia<
                __spec_p::Src<'i', 'm', 'g'>,
            > as __spec_p::LeafConvert<
                <Request·image as __spec_p::SourceServedBy<R>>::Space,
                <Batch<Image<2, 2, 3, 12, BCHW, f32>> as __spec_p::LeafField>::Space,
            >>::fits(
                <<Request·image as __spec_p::SourceServedBy<
                    R,
                >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                __spec_collate_image,
            )?;
            let __spec_collate_label = &__spec_p::Collate::DEFAULT;
            <__spec_p::LeafVia<
                __spec_p::Src<'y'>,
            > as __spec_p::LeafConvert<
                <Request·label as __spec_p::SourceServedBy<R>>::Space,
                <Batch<Vector<3>> as __spec_p::LeafField>::Space,
            >>::fits(
                <<Request·label as __spec_p::SourceServedBy<
                    R,
                >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                __spec_collate_label,
            )?;
            __spec_p::core::result::Result::Ok(())
        }
    }
    impl<R> __spec_p::ProvidedBy<R> for Request
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        Self: __spec_p::GatherFrom<R>,
        for<'__spec_x> <Self as __spec_p::Node<()>>::Flat: __spec_p::AllocFlat,
    {}
    impl __spec_p::GatherSame for Request
    where
        for<'__spec_x> Batch<Image<2, 2, 3, 12, BCHW, f32>>: __spec_p::GatherSame,
        for<'__spec_x> Batch<Vector<3>>: __spec_p::GatherSame,
    {
        fn gather_same(
            __spec_out: &mut Self,
            __spec_from: &Self,
            __spec_rows: &[usize],
            __spec_at: usize,
        ) {
            let _ = (&__spec_out, &__spec_from, &__spec_rows, &__spec_at);
            <Batch<
                Image<2, 2, 3, 12, BCHW, f32>,
            > as __spec_p::GatherSame>::gather_same(
                &mut __spec_out.image,
                &__spec_from.image,
                __spec_rows,
                __spec_at,
            );
            <Batch<
                Vector<3>,
            > as __spec_p::GatherSame>::gather_same(
                &mut __spec_out.label,
                &__spec_from.label,
                __spec_rows,
                __spec_at,
            );
        }
    }
    impl __spec_p::LoadRecord for Request
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        for<'__spec_x> Batch<Image<2, 2, 3, 12, BCHW, f32>>: __spec_p::LoadField,
        for<'__spec_x> Batch<Vector<3>>: __spec_p::LoadField,
    {
        fn load_record<__SpecL: __spec_p::LeafSource>(
            __spec_source: &mut __SpecL,
            __spec_leaves: &mut __spec_p::core::slice::Iter<'_, __spec_p::Described>,
        ) -> __spec_p::core::result::Result<Self, __SpecL::Error> {
            let _ = (&__spec_source, &__spec_leaves);
            __spec_p::core::result::Result::Ok(Self {
                image: <Batch<
                    Image<2, 2, 3, 12, BCHW, f32>,
                > as __spec_p::LoadField>::load_field(__spec_source, __spec_leaves)?,
                label: <Batch<
                    Vector<3>,
                > as __spec_p::LoadField>::load_field(__spec_source, __spec_leaves)?,
            })
        }
    }
    impl<R, __SpecK> __spec_p::ReadField<R, __SpecK> for Request
    where
        for<'__spec_x> Self: __spec_p::Reads<R>,
    {}
    impl<R, __SpecK> __spec_p::ServeField<R, __SpecK> for Request
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
    impl<R, __SpecK> __spec_p::GatherField<R, __SpecK> for Request
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
    impl<M: __spec_p::LeafMapper> __spec_p::MapSpec<M> for Request
    where
        Batch<Image<2, 2, 3, 12, BCHW, f32>>: __spec_p::MapSpec<M>,
        Batch<Vector<3>>: __spec_p::MapSpec<M>,
    {
        type Out = RequestMapped<
            <Batch<Image<2, 2, 3, 12, BCHW, f32>> as __spec_p::MapSpec<M>>::Out,
            <Batch<Vector<3>> as __spec_p::MapSpec<M>>::Out,
        >;
        fn map_spec(
            self,
            __spec_mapper: &mut M,
        ) -> __spec_p::core::result::Result<
            Self::Out,
            <M as __spec_p::LeafMapper>::Error,
        > {
            let _ = &__spec_mapper;
            __spec_p::core::result::Result::Ok(RequestMapped {
                image: <Batch<
                    Image<2, 2, 3, 12, BCHW, f32>,
                > as __spec_p::MapSpec<M>>::map_spec(self.image, __spec_mapper)?,
                label: <Batch<
                    Vector<3>,
                > as __spec_p::MapSpec<M>>::map_spec(self.label, __spec_mapper)?,
            })
        }
    }
    #[automatically_derived]
    #[diagnostic::do_not_recommend]
    impl __spec_p::NodeMut for Request
    where
        for<'__spec_x> Batch<Image<2, 2, 3, 12, BCHW, f32>>: __spec_p::NodeMut,
        for<'__spec_x> Batch<Vector<3>>: __spec_p::NodeMut,
    {
        type ViewsMut<'__spec_a> = RequestMapped<
            <Batch<
                Image<2, 2, 3, 12, BCHW, f32>,
            > as __spec_p::NodeMut>::ViewsMut<'__spec_a>,
            <Batch<Vector<3>> as __spec_p::NodeMut>::ViewsMut<'__spec_a>,
        >
        where
            Self: '__spec_a;
        fn node_views_mut(
            &mut self,
            __spec_rows: __spec_p::core::ops::Range<usize>,
        ) -> Self::ViewsMut<'_> {
            let _ = &__spec_rows;
            RequestMapped {
                image: <Batch<
                    Image<2, 2, 3, 12, BCHW, f32>,
                > as __spec_p::NodeMut>::node_views_mut(
                    &mut self.image,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                label: <Batch<
                    Vector<3>,
                > as __spec_p::NodeMut>::node_views_mut(
                    &mut self.label,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
            }
        }
    }
};
///The fields of [`Request`], each made into something else: one type parameter per field, in field order. Generated by `#[derive(DataSpec)]`; filled with a framework's tensors by `MapSpec::map_spec` (see the `tensors` module of batchspec), with mutable views of some rows by `Dataset::rows_mut` and `Dataset::sample_mut`, and with views of a projection by `Projection::rows`.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
#[allow(dead_code)]
struct RequestMapped<Image, Label> {
    ///The field `image` of [`Request`], made into something else (a tensor, a view).
    image: Image,
    ///The field `label` of [`Request`], made into something else (a tensor, a view).
    label: Label,
}
#[doc(hidden)]
#[allow(dead_code, unreachable_pub, non_camel_case_types)]
enum Request·image {}
#[doc(hidden)]
#[allow(dead_code, unreachable_pub, non_camel_case_types)]
enum Request·label {}
