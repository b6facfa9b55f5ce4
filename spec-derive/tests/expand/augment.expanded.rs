// The expansion of tests/expand/augment.rs; written by `BATCHSPEC_BLESS=1 cargo test`.
// tokens: 3c32572d737fcf60
// spans: 98b8f0c3c216624f
#[doc(hidden)]
#[allow(non_camel_case_types, unused_qualifications, clippy::all)]
const _: () = {
    use ::batchspec::__private as __spec_p;
    #[allow(dead_code)]
    fn __spec_fields()
    where
        Batch<Image<4, 5, 2, 40>>: __spec_p::SpecField,
        Batch<OneHot<3>>: __spec_p::SpecField,
    {}
    #[automatically_derived]
    #[diagnostic::do_not_recommend]
    impl<__SpecSrc> __spec_p::Node<__SpecSrc> for MixReq
    where
        for<'__spec_w> Batch<
            Image<4, 5, 2, 40>,
        >: __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>,
        for<'__spec_w> Batch<OneHot<3>>: __spec_p::Node<__spec_p::Src<'y'>>,
    {
        type Spaces = (
            <Batch<
                Image<4, 5, 2, 40>,
            > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::Spaces,
            <Batch<OneHot<3>> as __spec_p::Node<__spec_p::Src<'y'>>>::Spaces,
        );
        type Sources = (
            <Batch<
                Image<4, 5, 2, 40>,
            > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::Sources,
            <Batch<OneHot<3>> as __spec_p::Node<__spec_p::Src<'y'>>>::Sources,
        );
        type Leaves = __spec_p::LeafPair<
            <Batch<
                Image<4, 5, 2, 40>,
            > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::Leaves,
            <Batch<OneHot<3>> as __spec_p::Node<__spec_p::Src<'y'>>>::Leaves,
        >;
        type Flat = __spec_p::Pair<
            <Batch<
                Image<4, 5, 2, 40>,
            > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::Flat,
            <Batch<OneHot<3>> as __spec_p::Node<__spec_p::Src<'y'>>>::Flat,
        >;
        type FlatRef<'__spec_a> = __spec_p::Pair<
            <Batch<
                Image<4, 5, 2, 40>,
            > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::FlatRef<'__spec_a>,
            <Batch<OneHot<3>> as __spec_p::Node<__spec_p::Src<'y'>>>::FlatRef<'__spec_a>,
        >
        where
            Self: '__spec_a;
        type FlatMut<'__spec_a> = __spec_p::Pair<
            <Batch<
                Image<4, 5, 2, 40>,
            > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::FlatMut<'__spec_a>,
            <Batch<OneHot<3>> as __spec_p::Node<__spec_p::Src<'y'>>>::FlatMut<'__spec_a>,
        >
        where
            Self: '__spec_a;
        type Mapped<__SpecT> = (
            <Batch<
                Image<4, 5, 2, 40>,
            > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::Mapped<__SpecT>,
            <Batch<OneHot<3>> as __spec_p::Node<__spec_p::Src<'y'>>>::Mapped<__SpecT>,
        );
        type Views<'__spec_a> = MixReqMapped<
            <Batch<
                Image<4, 5, 2, 40>,
            > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::Views<'__spec_a>,
            <Batch<OneHot<3>> as __spec_p::Node<__spec_p::Src<'y'>>>::Views<'__spec_a>,
        >
        where
            Self: '__spec_a;
        const LEAVES: usize = 0
            + <Batch<
                Image<4, 5, 2, 40>,
            > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::LEAVES
            + <Batch<OneHot<3>> as __spec_p::Node<__spec_p::Src<'y'>>>::LEAVES;
        const TOTAL: __spec_p::core::option::Option<usize> = __spec_p::__add_features(
            <Batch<
                Image<4, 5, 2, 40>,
            > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::TOTAL,
            __spec_p::__add_features(
                <Batch<OneHot<3>> as __spec_p::Node<__spec_p::Src<'y'>>>::TOTAL,
                __spec_p::core::option::Option::Some(0usize),
            ),
        );
        fn describe_node(
            __spec_batch: usize,
            __spec_path: &__spec_p::Path<'_>,
            __spec_out: &mut __spec_p::Vec<__spec_p::Described>,
        ) {
            <Batch<
                Image<4, 5, 2, 40>,
            > as __spec_p::Node<
                __spec_p::Src<'i', 'm', 'g'>,
            >>::describe_node(
                __spec_batch,
                &__spec_p::Path::Field(__spec_path, "image"),
                __spec_out,
            );
            <Batch<
                OneHot<3>,
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
                Image<4, 5, 2, 40>,
            > as __spec_p::Node<
                __spec_p::Src<'i', 'm', 'g'>,
            >>::check_node(
                &self.image,
                &__spec_p::Path::Field(__spec_path, "image"),
                __spec_sizes,
            )?;
            <Batch<
                OneHot<3>,
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
                    Image<4, 5, 2, 40>,
                > as __spec_p::Node<
                    __spec_p::Src<'i', 'm', 'g'>,
                >>::node_flatten(self.image),
                second: <Batch<
                    OneHot<3>,
                > as __spec_p::Node<__spec_p::Src<'y'>>>::node_flatten(self.label),
            }
        }
        #[inline(always)]
        fn node_nest(__spec_flat: Self::Flat) -> Self {
            let __spec_p::Pair { first: __spec_part0, second: __spec_part1 } = __spec_flat;
            Self {
                image: <Batch<
                    Image<4, 5, 2, 40>,
                > as __spec_p::Node<
                    __spec_p::Src<'i', 'm', 'g'>,
                >>::node_nest(__spec_part0),
                label: <Batch<
                    OneHot<3>,
                > as __spec_p::Node<__spec_p::Src<'y'>>>::node_nest(__spec_part1),
            }
        }
        #[inline(always)]
        fn node_flatten_ref(&self) -> Self::FlatRef<'_> {
            __spec_p::Pair {
                first: <Batch<
                    Image<4, 5, 2, 40>,
                > as __spec_p::Node<
                    __spec_p::Src<'i', 'm', 'g'>,
                >>::node_flatten_ref(&self.image),
                second: <Batch<
                    OneHot<3>,
                > as __spec_p::Node<__spec_p::Src<'y'>>>::node_flatten_ref(&self.label),
            }
        }
        #[inline(always)]
        fn node_flatten_mut(&mut self) -> Self::FlatMut<'_> {
            __spec_p::Pair {
                first: <Batch<
                    Image<4, 5, 2, 40>,
                > as __spec_p::Node<
                    __spec_p::Src<'i', 'm', 'g'>,
                >>::node_flatten_mut(&mut self.image),
                second: <Batch<
                    OneHot<3>,
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
            MixReqMapped {
                image: <Batch<
                    Image<4, 5, 2, 40>,
                > as __spec_p::Node<
                    __spec_p::Src<'i', 'm', 'g'>,
                >>::node_views(
                    &self.image,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                label: <Batch<
                    OneHot<3>,
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
                    Image<4, 5, 2, 40>,
                > as __spec_p::Node<
                    __spec_p::Src<'i', 'm', 'g'>,
                >>::node_nest_mapped(__spec_next),
                <Batch<
                    OneHot<3>,
                > as __spec_p::Node<__spec_p::Src<'y'>>>::node_nest_mapped(__spec_next),
            )
        }
        fn node_flatten_mapped<__SpecT, __SpecV: __spec_p::core::ops::FnMut(__SpecT)>(
            __spec_mapped: Self::Mapped<__SpecT>,
            __spec_visit: &mut __SpecV,
        ) {
            let _ = (&__spec_mapped, &__spec_visit);
            <Batch<
                Image<4, 5, 2, 40>,
            > as __spec_p::Node<
                __spec_p::Src<'i', 'm', 'g'>,
            >>::node_flatten_mapped(__spec_mapped.0, __spec_visit);
            <Batch<
                OneHot<3>,
            > as __spec_p::Node<
                __spec_p::Src<'y'>,
            >>::node_flatten_mapped(__spec_mapped.1, __spec_visit);
        }
    }
    #[automatically_derived]
    impl __spec_p::DataSpec for MixReq
    where
        for<'__spec_w> Batch<
            Image<4, 5, 2, 40>,
        >: __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>,
        for<'__spec_w> Batch<OneHot<3>>: __spec_p::Node<__spec_p::Src<'y'>>,
    {}
    impl __spec_p::HasSource<__spec_p::Src<'i', 'm', 'g'>> for MixReq
    where
        for<'__spec_x> Batch<Image<4, 5, 2, 40>>: __spec_p::LeafField,
    {
        type Space = <Batch<Image<4, 5, 2, 40>> as __spec_p::LeafField>::Space;
        type Field = Batch<Image<4, 5, 2, 40>>;
        #[inline]
        fn source_view(&self) -> __spec_p::SourceView<'_, Self::Space> {
            <Batch<
                Image<4, 5, 2, 40>,
            > as __spec_p::LeafField>::leaf_field_view(&self.image)
        }
        #[inline]
        fn source_field(&self) -> &Self::Field {
            &self.image
        }
    }
    impl<__SpecF> __spec_p::HasSourceAs<__spec_p::Src<'i', 'm', 'g'>, __SpecF>
    for MixReq {
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
    impl __spec_p::HasSource<__spec_p::Src<'y'>> for MixReq
    where
        for<'__spec_x> Batch<OneHot<3>>: __spec_p::LeafField,
    {
        type Space = <Batch<OneHot<3>> as __spec_p::LeafField>::Space;
        type Field = Batch<OneHot<3>>;
        #[inline]
        fn source_view(&self) -> __spec_p::SourceView<'_, Self::Space> {
            <Batch<OneHot<3>> as __spec_p::LeafField>::leaf_field_view(&self.label)
        }
        #[inline]
        fn source_field(&self) -> &Self::Field {
            &self.label
        }
    }
    impl<__SpecF> __spec_p::HasSourceAs<__spec_p::Src<'y'>, __SpecF> for MixReq {
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
    impl __spec_p::FieldSource for MixReq·image {
        type Key = __spec_p::Src<'i', 'm', 'g'>;
        type Family = __spec_p::FamilyOf<Batch<Image<4, 5, 2, 40>>>;
    }
    const _: () = match __spec_p::check_augment::<
        MixTrain,
        <Batch<Image<4, 5, 2, 40>> as __spec_p::LeafField>::Space,
    >("image") {
        __spec_p::core::result::Result::Ok(()) => {}
        __spec_p::core::result::Result::Err(m) => {
            __spec_p::core::panic!("{}", m.as_str())
        }
    };
    const _: () = match __spec_p::check_mixed::<MixTrain>("label", "img") {
        __spec_p::core::result::Result::Ok(()) => {}
        __spec_p::core::result::Result::Err(m) => {
            __spec_p::core::panic!("{}", m.as_str())
        }
    };
    const _: () = {
        const fn mixed_labels_are_one_hot<L: __spec_p::MixLabels>() {}
        mixed_labels_are_one_hot::<<Batch<OneHot<3>> as __spec_p::LeafField>::Space>();
    };
    impl __spec_p::FieldSource for MixReq·label {
        type Key = __spec_p::Src<'y'>;
        type Family = __spec_p::FamilyOf<Batch<OneHot<3>>>;
    }
    impl<R> __spec_p::ProjectFrom<R> for MixReq
    where
        MixReq·image: __spec_p::LentByProjection<R>,
        MixReq·label: __spec_p::LentByProjection<R>,
    {
        type Views<'__spec_a> = MixReqMapped<
            <MixReq·image as __spec_p::LentByProjection<R>>::View,
            <MixReq·label as __spec_p::LentByProjection<R>>::View,
        >
        where
            R: '__spec_a;
        fn project_rows(
            __spec_record: &R,
            __spec_rows: __spec_p::core::ops::Range<usize>,
        ) -> Self::Views<'_> {
            let _ = (&__spec_record, &__spec_rows);
            MixReqMapped {
                image: <MixReq·image as __spec_p::LentByProjection<R>>::lend(),
                label: <MixReq·label as __spec_p::LentByProjection<R>>::lend(),
            }
        }
    }
    impl<R> __spec_p::Reads<R> for MixReq
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        MixReq·image: __spec_p::SourceServedBy<R>,
        MixReq·image: __spec_p::AugmentsFrom<
            R,
            MixTrain,
            <MixReq·image as __spec_p::SourceServedBy<R>>::Space,
            <Batch<Image<4, 5, 2, 40>> as __spec_p::LeafField>::Space,
        >,
        MixReq·label: __spec_p::SourceServedBy<R>,
        <MixReq·label as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<<Batch<OneHot<3>> as __spec_p::LeafField>::Space>,
    {}
    impl<R> __spec_p::ServeFrom<R> for MixReq
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        MixReq·image: __spec_p::SourceServedBy<R>,
        MixReq·image: __spec_p::AugmentsFrom<
            R,
            MixTrain,
            <MixReq·image as __spec_p::SourceServedBy<R>>::Space,
            <Batch<Image<4, 5, 2, 40>> as __spec_p::LeafField>::Space,
        >,
        MixReq·image: __spec_p::ServedWhole<R>,
        MixReq·label: __spec_p::SourceServedBy<R>,
        <MixReq·label as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<<Batch<OneHot<3>> as __spec_p::LeafField>::Space>,
        MixReq·label: __spec_p::ServedWhole<R>,
    {
        fn serve_from(
            __spec_record: &R,
            __spec_cache: &mut __spec_p::ServeCache,
        ) -> Self {
            let _ = (&__spec_record, &__spec_cache);
            Self {
                image: <MixReq·image as __spec_p::ServedWhole<
                    R,
                >>::serve_value::<Batch<Image<4, 5, 2, 40>>>(),
                label: <MixReq·label as __spec_p::ServedWhole<
                    R,
                >>::serve_value::<Batch<OneHot<3>>>(),
            }
        }
    }
    impl<R> __spec_p::GatherFrom<R> for MixReq
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        MixReq·image: __spec_p::SourceServedBy<R>,
        MixReq·image: __spec_p::AugmentsFrom<
            R,
            MixTrain,
            <MixReq·image as __spec_p::SourceServedBy<R>>::Space,
            <Batch<Image<4, 5, 2, 40>> as __spec_p::LeafField>::Space,
        >,
        for<'__spec_x> Batch<
            Image<4, 5, 2, 40>,
        >: __spec_p::LeafMut<<Batch<Image<4, 5, 2, 40>> as __spec_p::LeafField>::Space>,
        MixReq·label: __spec_p::MixesLabels<
            R,
            MixTrain,
            <Batch<OneHot<3>> as __spec_p::LeafField>::Space,
        >,
        MixReq·label: __spec_p::SourceServedBy<R>,
        <MixReq·label as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<<Batch<OneHot<3>> as __spec_p::LeafField>::Space>,
        for<'__spec_x> Batch<
            OneHot<3>,
        >: __spec_p::GatherInto<<Batch<OneHot<3>> as __spec_p::LeafField>::Space>,
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
            <MixReq·image as __spec_p::AugmentsFrom<
                R,
                MixTrain,
                <MixReq·image as __spec_p::SourceServedBy<R>>::Space,
                <Batch<Image<4, 5, 2, 40>> as __spec_p::LeafField>::Space,
            >>::gather(
                <<MixReq·image as __spec_p::SourceServedBy<
                    R,
                >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                __spec_rows,
                __spec_p::core::clone::Clone::clone(&__spec_zero),
                __spec_p::LeafMut::<
                    <Batch<Image<4, 5, 2, 40>> as __spec_p::LeafField>::Space,
                >::leaf_rows_mut(
                    &mut __spec_out.image,
                    __spec_rows.len().max(__spec_zero.end),
                ),
                __spec_draws,
            );
            let __spec_collate_label = &__spec_p::Collate::DEFAULT;
            <__spec_p::LeafVia<
                __spec_p::Src<'y'>,
            > as __spec_p::LeafConvert<
                <MixReq·label as __spec_p::SourceServedBy<R>>::Space,
                <Batch<OneHot<3>> as __spec_p::LeafField>::Space,
            >>::gather(
                <<MixReq·label as __spec_p::SourceServedBy<
                    R,
                >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                __spec_rows,
                __spec_p::core::clone::Clone::clone(&__spec_zero),
                &mut __spec_out.label,
                __spec_collate_label,
            )?;
            <MixReq·label as __spec_p::MixesLabels<
                R,
                MixTrain,
                <Batch<OneHot<3>> as __spec_p::LeafField>::Space,
            >>::mix(
                __spec_p::LeafMut::<
                    <Batch<OneHot<3>> as __spec_p::LeafField>::Space,
                >::leaf_rows_mut(
                    &mut __spec_out.label,
                    __spec_rows.len().max(__spec_zero.end),
                ),
                __spec_rows,
                __spec_draws,
            );
            __spec_p::core::result::Result::Ok(())
        }
        fn check_fits(
            __spec_record: &R,
        ) -> __spec_p::core::result::Result<(), __spec_p::DataError> {
            let _ = &__spec_record;
            let __spec_collate_label = &__spec_p::Collate::DEFAULT;
            <__spec_p::LeafVia<
                __spec_p::Src<'y'>,
            > as __spec_p::LeafConvert<
                <MixReq·label as __spec_p::SourceServedBy<R>>::Space,
                <Batch<OneHot<3>> as __spec_p::LeafField>::Space,
            >>::fits(
                <<MixReq·label as __spec_p::SourceServedBy<
                    R,
                >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                __spec_collate_label,
            )?;
            __spec_p::core::result::Result::Ok(())
        }
    }
    impl<R> __spec_p::ProvidedBy<R> for MixReq
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        Self: __spec_p::GatherFrom<R>,
        for<'__spec_x> <Self as __spec_p::Node<()>>::Flat: __spec_p::AllocFlat,
    {}
    impl __spec_p::GatherSame for MixReq
    where
        for<'__spec_x> Batch<Image<4, 5, 2, 40>>: __spec_p::GatherSame,
        for<'__spec_x> Batch<OneHot<3>>: __spec_p::GatherSame,
    {
        fn gather_same(
            __spec_out: &mut Self,
            __spec_from: &Self,
            __spec_rows: &[usize],
            __spec_at: usize,
        ) {
            let _ = (&__spec_out, &__spec_from, &__spec_rows, &__spec_at);
            <Batch<
                Image<4, 5, 2, 40>,
            > as __spec_p::GatherSame>::gather_same(
                &mut __spec_out.image,
                &__spec_from.image,
                __spec_rows,
                __spec_at,
            );
            <Batch<
                OneHot<3>,
            > as __spec_p::GatherSame>::gather_same(
                &mut __spec_out.label,
                &__spec_from.label,
                __spec_rows,
                __spec_at,
            );
        }
    }
    impl __spec_p::LoadRecord for MixReq
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        for<'__spec_x> Batch<Image<4, 5, 2, 40>>: __spec_p::LoadField,
        for<'__spec_x> Batch<OneHot<3>>: __spec_p::LoadField,
    {
        fn load_record<__SpecL: __spec_p::LeafSource>(
            __spec_source: &mut __SpecL,
            __spec_leaves: &mut __spec_p::core::slice::Iter<'_, __spec_p::Described>,
        ) -> __spec_p::core::result::Result<Self, __SpecL::Error> {
            let _ = (&__spec_source, &__spec_leaves);
            __spec_p::core::result::Result::Ok(Self {
                image: <Batch<
                    Image<4, 5, 2, 40>,
                > as __spec_p::LoadField>::load_field(__spec_source, __spec_leaves)?,
                label: <Batch<
                    OneHot<3>,
                > as __spec_p::LoadField>::load_field(__spec_source, __spec_leaves)?,
            })
        }
    }
    impl<R, __SpecK> __spec_p::ReadField<R, __SpecK> for MixReq
    where
        for<'__spec_x> Self: __spec_p::Reads<R>,
    {}
    impl<R, __SpecK> __spec_p::ServeField<R, __SpecK> for MixReq
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
    impl<R, __SpecK> __spec_p::GatherField<R, __SpecK> for MixReq
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
    impl<M: __spec_p::LeafMapper> __spec_p::MapSpec<M> for MixReq
    where
        Batch<Image<4, 5, 2, 40>>: __spec_p::MapSpec<M>,
        Batch<OneHot<3>>: __spec_p::MapSpec<M>,
    {
        type Out = MixReqMapped<
            <Batch<Image<4, 5, 2, 40>> as __spec_p::MapSpec<M>>::Out,
            <Batch<OneHot<3>> as __spec_p::MapSpec<M>>::Out,
        >;
        fn map_spec(
            self,
            __spec_mapper: &mut M,
        ) -> __spec_p::core::result::Result<
            Self::Out,
            <M as __spec_p::LeafMapper>::Error,
        > {
            let _ = &__spec_mapper;
            __spec_p::core::result::Result::Ok(MixReqMapped {
                image: <Batch<
                    Image<4, 5, 2, 40>,
                > as __spec_p::MapSpec<M>>::map_spec(self.image, __spec_mapper)?,
                label: <Batch<
                    OneHot<3>,
                > as __spec_p::MapSpec<M>>::map_spec(self.label, __spec_mapper)?,
            })
        }
    }
    #[automatically_derived]
    #[diagnostic::do_not_recommend]
    impl __spec_p::NodeMut for MixReq
    where
        for<'__spec_x> Batch<Image<4, 5, 2, 40>>: __spec_p::NodeMut,
        for<'__spec_x> Batch<OneHot<3>>: __spec_p::NodeMut,
    {
        type ViewsMut<'__spec_a> = MixReqMapped<
            <Batch<Image<4, 5, 2, 40>> as __spec_p::NodeMut>::ViewsMut<'__spec_a>,
            <Batch<OneHot<3>> as __spec_p::NodeMut>::ViewsMut<'__spec_a>,
        >
        where
            Self: '__spec_a;
        fn node_views_mut(
            &mut self,
            __spec_rows: __spec_p::core::ops::Range<usize>,
        ) -> Self::ViewsMut<'_> {
            let _ = &__spec_rows;
            MixReqMapped {
                image: <Batch<
                    Image<4, 5, 2, 40>,
                > as __spec_p::NodeMut>::node_views_mut(
                    &mut self.image,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                label: <Batch<
                    OneHot<3>,
                > as __spec_p::NodeMut>::node_views_mut(
                    &mut self.label,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
            }
        }
    }
};
///The fields of [`MixReq`], each made into something else: one type parameter per field, in field order. Generated by `#[derive(DataSpec)]`; filled with a framework's tensors by `MapSpec::map_spec` (see the `tensors` module of batchspec), with mutable views of some rows by `Dataset::rows_mut` and `Dataset::sample_mut`, and with views of a projection by `Projection::rows`.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
#[allow(dead_code)]
struct MixReqMapped<Image, Label> {
    ///The field `image` of [`MixReq`], made into something else (a tensor, a view).
    image: Image,
    ///The field `label` of [`MixReq`], made into something else (a tensor, a view).
    label: Label,
}
#[doc(hidden)]
#[allow(dead_code, unreachable_pub, non_camel_case_types)]
enum MixReq·image {}
#[doc(hidden)]
#[allow(dead_code, unreachable_pub, non_camel_case_types)]
enum MixReq·label {}
