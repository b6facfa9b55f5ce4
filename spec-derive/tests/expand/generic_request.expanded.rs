// The expansion of tests/expand/generic_request.rs; written by `BATCHSPEC_BLESS=1 cargo test`.
// tokens: 33f340778dd21f15
// spans: 09579dc11dd60212
#[doc(hidden)]
#[allow(non_camel_case_types, unused_qualifications, clippy::all)]
const _: () = {
    use ::batchspec::__private as __spec_p;
    #[allow(dead_code)]
    fn __spec_fields()
    where
        Batch<IndexSeq<50>>: __spec_p::SpecField,
        Batch<Image<4, 5, 2, 40>>: __spec_p::SpecField,
    {}
    #[automatically_derived]
    #[diagnostic::do_not_recommend]
    impl<R: Space, __SpecSrc> __spec_p::Node<__SpecSrc> for GenericReq<R>
    where
        R: __spec_p::Space,
        for<'__spec_w> Batch<IndexSeq<50>>: __spec_p::Node<__spec_p::Src<'t'>>,
        for<'__spec_w> Batch<
            Image<4, 5, 2, 40>,
        >: __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>,
        Batch<R>: __spec_p::Node<__spec_p::Src<'y'>>,
    {
        type Spaces = (
            <Batch<IndexSeq<50>> as __spec_p::Node<__spec_p::Src<'t'>>>::Spaces,
            <Batch<
                Image<4, 5, 2, 40>,
            > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::Spaces,
            <Batch<R> as __spec_p::Node<__spec_p::Src<'y'>>>::Spaces,
        );
        type Sources = (
            <Batch<IndexSeq<50>> as __spec_p::Node<__spec_p::Src<'t'>>>::Sources,
            <Batch<
                Image<4, 5, 2, 40>,
            > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::Sources,
            <Batch<R> as __spec_p::Node<__spec_p::Src<'y'>>>::Sources,
        );
        type Leaves = __spec_p::LeafPair<
            <Batch<IndexSeq<50>> as __spec_p::Node<__spec_p::Src<'t'>>>::Leaves,
            __spec_p::LeafPair<
                <Batch<
                    Image<4, 5, 2, 40>,
                > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::Leaves,
                <Batch<R> as __spec_p::Node<__spec_p::Src<'y'>>>::Leaves,
            >,
        >;
        type Flat = __spec_p::Pair<
            <Batch<IndexSeq<50>> as __spec_p::Node<__spec_p::Src<'t'>>>::Flat,
            __spec_p::Pair<
                <Batch<
                    Image<4, 5, 2, 40>,
                > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::Flat,
                <Batch<R> as __spec_p::Node<__spec_p::Src<'y'>>>::Flat,
            >,
        >;
        type FlatRef<'__spec_a> = __spec_p::Pair<
            <Batch<
                IndexSeq<50>,
            > as __spec_p::Node<__spec_p::Src<'t'>>>::FlatRef<'__spec_a>,
            __spec_p::Pair<
                <Batch<
                    Image<4, 5, 2, 40>,
                > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::FlatRef<'__spec_a>,
                <Batch<R> as __spec_p::Node<__spec_p::Src<'y'>>>::FlatRef<'__spec_a>,
            >,
        >
        where
            Self: '__spec_a;
        type FlatMut<'__spec_a> = __spec_p::Pair<
            <Batch<
                IndexSeq<50>,
            > as __spec_p::Node<__spec_p::Src<'t'>>>::FlatMut<'__spec_a>,
            __spec_p::Pair<
                <Batch<
                    Image<4, 5, 2, 40>,
                > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::FlatMut<'__spec_a>,
                <Batch<R> as __spec_p::Node<__spec_p::Src<'y'>>>::FlatMut<'__spec_a>,
            >,
        >
        where
            Self: '__spec_a;
        type Mapped<__SpecT> = (
            <Batch<IndexSeq<50>> as __spec_p::Node<__spec_p::Src<'t'>>>::Mapped<__SpecT>,
            <Batch<
                Image<4, 5, 2, 40>,
            > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::Mapped<__SpecT>,
            <Batch<R> as __spec_p::Node<__spec_p::Src<'y'>>>::Mapped<__SpecT>,
        );
        type Views<'__spec_a> = GenericReqMapped<
            <Batch<
                IndexSeq<50>,
            > as __spec_p::Node<__spec_p::Src<'t'>>>::Views<'__spec_a>,
            <Batch<
                Image<4, 5, 2, 40>,
            > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::Views<'__spec_a>,
            <Batch<R> as __spec_p::Node<__spec_p::Src<'y'>>>::Views<'__spec_a>,
        >
        where
            Self: '__spec_a;
        const LEAVES: usize = 0
            + <Batch<IndexSeq<50>> as __spec_p::Node<__spec_p::Src<'t'>>>::LEAVES
            + <Batch<
                Image<4, 5, 2, 40>,
            > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::LEAVES
            + <Batch<R> as __spec_p::Node<__spec_p::Src<'y'>>>::LEAVES;
        const TOTAL: __spec_p::core::option::Option<usize> = __spec_p::__add_features(
            <Batch<IndexSeq<50>> as __spec_p::Node<__spec_p::Src<'t'>>>::TOTAL,
            __spec_p::__add_features(
                <Batch<
                    Image<4, 5, 2, 40>,
                > as __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>>::TOTAL,
                __spec_p::__add_features(
                    <Batch<R> as __spec_p::Node<__spec_p::Src<'y'>>>::TOTAL,
                    __spec_p::core::option::Option::Some(0usize),
                ),
            ),
        );
        fn describe_node(
            __spec_batch: usize,
            __spec_path: &__spec_p::Path<'_>,
            __spec_out: &mut __spec_p::Vec<__spec_p::Described>,
        ) {
            <Batch<
                IndexSeq<50>,
            > as __spec_p::Node<
                __spec_p::Src<'t'>,
            >>::describe_node(
                __spec_batch,
                &__spec_p::Path::Field(__spec_path, "tokens"),
                __spec_out,
            );
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
                R,
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
                IndexSeq<50>,
            > as __spec_p::Node<
                __spec_p::Src<'t'>,
            >>::check_node(
                &self.tokens,
                &__spec_p::Path::Field(__spec_path, "tokens"),
                __spec_sizes,
            )?;
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
                R,
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
                    IndexSeq<50>,
                > as __spec_p::Node<__spec_p::Src<'t'>>>::node_flatten(self.tokens),
                second: __spec_p::Pair {
                    first: <Batch<
                        Image<4, 5, 2, 40>,
                    > as __spec_p::Node<
                        __spec_p::Src<'i', 'm', 'g'>,
                    >>::node_flatten(self.image),
                    second: <Batch<
                        R,
                    > as __spec_p::Node<__spec_p::Src<'y'>>>::node_flatten(self.label),
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
                tokens: <Batch<
                    IndexSeq<50>,
                > as __spec_p::Node<__spec_p::Src<'t'>>>::node_nest(__spec_part0),
                image: <Batch<
                    Image<4, 5, 2, 40>,
                > as __spec_p::Node<
                    __spec_p::Src<'i', 'm', 'g'>,
                >>::node_nest(__spec_part1),
                label: <Batch<
                    R,
                > as __spec_p::Node<__spec_p::Src<'y'>>>::node_nest(__spec_part2),
            }
        }
        #[inline(always)]
        fn node_flatten_ref(&self) -> Self::FlatRef<'_> {
            __spec_p::Pair {
                first: <Batch<
                    IndexSeq<50>,
                > as __spec_p::Node<__spec_p::Src<'t'>>>::node_flatten_ref(&self.tokens),
                second: __spec_p::Pair {
                    first: <Batch<
                        Image<4, 5, 2, 40>,
                    > as __spec_p::Node<
                        __spec_p::Src<'i', 'm', 'g'>,
                    >>::node_flatten_ref(&self.image),
                    second: <Batch<
                        R,
                    > as __spec_p::Node<
                        __spec_p::Src<'y'>,
                    >>::node_flatten_ref(&self.label),
                },
            }
        }
        #[inline(always)]
        fn node_flatten_mut(&mut self) -> Self::FlatMut<'_> {
            __spec_p::Pair {
                first: <Batch<
                    IndexSeq<50>,
                > as __spec_p::Node<
                    __spec_p::Src<'t'>,
                >>::node_flatten_mut(&mut self.tokens),
                second: __spec_p::Pair {
                    first: <Batch<
                        Image<4, 5, 2, 40>,
                    > as __spec_p::Node<
                        __spec_p::Src<'i', 'm', 'g'>,
                    >>::node_flatten_mut(&mut self.image),
                    second: <Batch<
                        R,
                    > as __spec_p::Node<
                        __spec_p::Src<'y'>,
                    >>::node_flatten_mut(&mut self.label),
                },
            }
        }
        fn node_views(
            &self,
            __spec_rows: __spec_p::core::ops::Range<usize>,
        ) -> Self::Views<'_> {
            let _ = &__spec_rows;
            GenericReqMapped {
                tokens: <Batch<
                    IndexSeq<50>,
                > as __spec_p::Node<
                    __spec_p::Src<'t'>,
                >>::node_views(
                    &self.tokens,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                image: <Batch<
                    Image<4, 5, 2, 40>,
                > as __spec_p::Node<
                    __spec_p::Src<'i', 'm', 'g'>,
                >>::node_views(
                    &self.image,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                label: <Batch<
                    R,
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
                    IndexSeq<50>,
                > as __spec_p::Node<__spec_p::Src<'t'>>>::node_nest_mapped(__spec_next),
                <Batch<
                    Image<4, 5, 2, 40>,
                > as __spec_p::Node<
                    __spec_p::Src<'i', 'm', 'g'>,
                >>::node_nest_mapped(__spec_next),
                <Batch<
                    R,
                > as __spec_p::Node<__spec_p::Src<'y'>>>::node_nest_mapped(__spec_next),
            )
        }
        fn node_flatten_mapped<__SpecT, __SpecV: __spec_p::core::ops::FnMut(__SpecT)>(
            __spec_mapped: Self::Mapped<__SpecT>,
            __spec_visit: &mut __SpecV,
        ) {
            let _ = (&__spec_mapped, &__spec_visit);
            <Batch<
                IndexSeq<50>,
            > as __spec_p::Node<
                __spec_p::Src<'t'>,
            >>::node_flatten_mapped(__spec_mapped.0, __spec_visit);
            <Batch<
                Image<4, 5, 2, 40>,
            > as __spec_p::Node<
                __spec_p::Src<'i', 'm', 'g'>,
            >>::node_flatten_mapped(__spec_mapped.1, __spec_visit);
            <Batch<
                R,
            > as __spec_p::Node<
                __spec_p::Src<'y'>,
            >>::node_flatten_mapped(__spec_mapped.2, __spec_visit);
        }
    }
    #[automatically_derived]
    impl<R: Space> __spec_p::DataSpec for GenericReq<R>
    where
        R: __spec_p::Space,
        for<'__spec_w> Batch<IndexSeq<50>>: __spec_p::Node<__spec_p::Src<'t'>>,
        for<'__spec_w> Batch<
            Image<4, 5, 2, 40>,
        >: __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>,
        Batch<R>: __spec_p::Node<__spec_p::Src<'y'>>,
    {}
    impl<R: Space> __spec_p::HasSource<__spec_p::Src<'t'>> for GenericReq<R>
    where
        for<'__spec_x> Batch<IndexSeq<50>>: __spec_p::LeafField,
        R: __spec_p::Space,
        for<'__spec_w> Batch<IndexSeq<50>>: __spec_p::Node<__spec_p::Src<'t'>>,
        for<'__spec_w> Batch<
            Image<4, 5, 2, 40>,
        >: __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>,
        Batch<R>: __spec_p::Node<__spec_p::Src<'y'>>,
    {
        type Space = <Batch<IndexSeq<50>> as __spec_p::LeafField>::Space;
        type Field = Batch<IndexSeq<50>>;
        #[inline]
        fn source_view(&self) -> __spec_p::SourceView<'_, Self::Space> {
            <Batch<IndexSeq<50>> as __spec_p::LeafField>::leaf_field_view(&self.tokens)
        }
        #[inline]
        fn source_field(&self) -> &Self::Field {
            &self.tokens
        }
    }
    impl<R: Space, __SpecF> __spec_p::HasSourceAs<__spec_p::Src<'t'>, __SpecF>
    for GenericReq<R>
    where
        R: __spec_p::Space,
        for<'__spec_w> Batch<IndexSeq<50>>: __spec_p::Node<__spec_p::Src<'t'>>,
        for<'__spec_w> Batch<
            Image<4, 5, 2, 40>,
        >: __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>,
        Batch<R>: __spec_p::Node<__spec_p::Src<'y'>>,
    {
        type Space = <Self as __spec_p::HasSource<__spec_p::Src<'t'>>>::Space;
        type Field = <Self as __spec_p::HasSource<__spec_p::Src<'t'>>>::Field;
        #[inline]
        fn source_view_as(&self) -> __spec_p::SourceView<'_, Self::Space> {
            <Self as __spec_p::HasSource<__spec_p::Src<'t'>>>::source_view(self)
        }
        #[inline]
        fn source_field_as(&self) -> &Self::Field {
            <Self as __spec_p::HasSource<__spec_p::Src<'t'>>>::source_field(self)
        }
    }
    impl<R: Space> __spec_p::HasSource<__spec_p::Src<'i', 'm', 'g'>> for GenericReq<R>
    where
        for<'__spec_x> Batch<Image<4, 5, 2, 40>>: __spec_p::LeafField,
        R: __spec_p::Space,
        for<'__spec_w> Batch<IndexSeq<50>>: __spec_p::Node<__spec_p::Src<'t'>>,
        for<'__spec_w> Batch<
            Image<4, 5, 2, 40>,
        >: __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>,
        Batch<R>: __spec_p::Node<__spec_p::Src<'y'>>,
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
    impl<R: Space, __SpecF> __spec_p::HasSourceAs<__spec_p::Src<'i', 'm', 'g'>, __SpecF>
    for GenericReq<R>
    where
        R: __spec_p::Space,
        for<'__spec_w> Batch<IndexSeq<50>>: __spec_p::Node<__spec_p::Src<'t'>>,
        for<'__spec_w> Batch<
            Image<4, 5, 2, 40>,
        >: __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>,
        Batch<R>: __spec_p::Node<__spec_p::Src<'y'>>,
    {
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
    impl<R: Space> __spec_p::HasSource<__spec_p::Src<'y'>> for GenericReq<R>
    where
        for<'__spec_x> Batch<R>: __spec_p::LeafField,
        R: __spec_p::Space,
        for<'__spec_w> Batch<IndexSeq<50>>: __spec_p::Node<__spec_p::Src<'t'>>,
        for<'__spec_w> Batch<
            Image<4, 5, 2, 40>,
        >: __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>,
        Batch<R>: __spec_p::Node<__spec_p::Src<'y'>>,
    {
        type Space = <Batch<R> as __spec_p::LeafField>::Space;
        type Field = Batch<R>;
        #[inline]
        fn source_view(&self) -> __spec_p::SourceView<'_, Self::Space> {
            <Batch<R> as __spec_p::LeafField>::leaf_field_view(&self.label)
        }
        #[inline]
        fn source_field(&self) -> &Self::Field {
            &self.label
        }
    }
    impl<R: Space, __SpecF> __spec_p::HasSourceAs<__spec_p::Src<'y'>, __SpecF>
    for GenericReq<R>
    where
        R: __spec_p::Space,
        for<'__spec_w> Batch<IndexSeq<50>>: __spec_p::Node<__spec_p::Src<'t'>>,
        for<'__spec_w> Batch<
            Image<4, 5, 2, 40>,
        >: __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>,
        Batch<R>: __spec_p::Node<__spec_p::Src<'y'>>,
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
    ::core::compile_error! {
        "a request with generic parameters cannot name an augmentation: its sizes are checked where the request is defined, so give the augmented field a written-out image type"
    }
    ::core::compile_error! {
        "`mixed_with = \"other\"` names a source that no augmented field of `GenericReq` reads: mix labels with the source of a field with `augment = ..` whose steps mix samples"
    }
    impl __spec_p::FieldSource for GenericReq·tokens {
        type Key = __spec_p::Src<'t'>;
        type Family = __spec_p::FamilyOf<Batch<IndexSeq<50>>>;
    }
    impl __spec_p::FieldSource for GenericReq·label {
        type Key = __spec_p::Src<'y'>;
        type Family = ();
    }
    impl<R: Space, Rec> __spec_p::ProjectFrom<Rec> for GenericReq<R>
    where
        R: __spec_p::Space,
        for<'__spec_w> Batch<IndexSeq<50>>: __spec_p::Node<__spec_p::Src<'t'>>,
        for<'__spec_w> Batch<
            Image<4, 5, 2, 40>,
        >: __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>,
        Batch<R>: __spec_p::Node<__spec_p::Src<'y'>>,
        GenericReq·tokens: __spec_p::SourceServedBy<Rec>,
        <GenericReq·tokens as __spec_p::SourceServedBy<
            Rec,
        >>::Space: __spec_p::LendsAs<
            <Batch<IndexSeq<50>> as __spec_p::LeafField>::Space,
        >,
        for<'__spec_x> <GenericReq·tokens as __spec_p::SourceServedBy<
            Rec,
        >>::Field: __spec_p::ProjectAs<'__spec_x, Batch<IndexSeq<50>>>,
        GenericReq·image: __spec_p::LentByProjection<Rec>,
        GenericReq·label: __spec_p::LentByProjection<Rec>,
    {
        type Views<'__spec_a> = GenericReqMapped<
            <<GenericReq·tokens as __spec_p::SourceServedBy<
                Rec,
            >>::Field as __spec_p::ProjectAs<'__spec_a, Batch<IndexSeq<50>>>>::View,
            <GenericReq·image as __spec_p::LentByProjection<Rec>>::View,
            <GenericReq·label as __spec_p::LentByProjection<Rec>>::View,
        >
        where
            Rec: '__spec_a;
        fn project_rows(
            __spec_record: &Rec,
            __spec_rows: __spec_p::core::ops::Range<usize>,
        ) -> Self::Views<'_> {
            let _ = (&__spec_record, &__spec_rows);
            GenericReqMapped {
                tokens: <<GenericReq·tokens as __spec_p::SourceServedBy<
                    Rec,
                >>::Field as __spec_p::ProjectAs<
                    '_,
                    Batch<IndexSeq<50>>,
                >>::project(
                    <<GenericReq·tokens as __spec_p::SourceServedBy<
                        Rec,
                    >>::Via as __spec_p::SourceOf<Rec>>::field(__spec_record),
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                image: <GenericReq·image as __spec_p::LentByProjection<Rec>>::lend(),
                label: <GenericReq·label as __spec_p::LentByProjection<Rec>>::lend(),
            }
        }
    }
    impl<R: Space, Rec> __spec_p::Reads<Rec> for GenericReq<R>
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        R: __spec_p::Space,
        for<'__spec_w> Batch<IndexSeq<50>>: __spec_p::Node<__spec_p::Src<'t'>>,
        for<'__spec_w> Batch<
            Image<4, 5, 2, 40>,
        >: __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>,
        Batch<R>: __spec_p::Node<__spec_p::Src<'y'>>,
        GenericReq·tokens: __spec_p::SourceServedBy<Rec>,
        <GenericReq·tokens as __spec_p::SourceServedBy<
            Rec,
        >>::Space: __spec_p::FormatAs<
            <Batch<IndexSeq<50>> as __spec_p::LeafField>::Space,
        >,
        <Batch<IndexSeq<50>> as __spec_p::LeafField>::Space: __spec_p::Padded,
        GenericReq·label: __spec_p::SourceServedBy<Rec>,
        <GenericReq·label as __spec_p::SourceServedBy<
            Rec,
        >>::Space: __spec_p::FormatAs<<Batch<R> as __spec_p::LeafField>::Space>,
    {}
    impl<R: Space, Rec> __spec_p::ServeFrom<Rec> for GenericReq<R>
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        R: __spec_p::Space,
        for<'__spec_w> Batch<IndexSeq<50>>: __spec_p::Node<__spec_p::Src<'t'>>,
        for<'__spec_w> Batch<
            Image<4, 5, 2, 40>,
        >: __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>,
        Batch<R>: __spec_p::Node<__spec_p::Src<'y'>>,
        GenericReq·tokens: __spec_p::SourceServedBy<Rec>,
        <GenericReq·tokens as __spec_p::SourceServedBy<
            Rec,
        >>::Space: __spec_p::FormatAs<
            <Batch<IndexSeq<50>> as __spec_p::LeafField>::Space,
        >,
        <Batch<IndexSeq<50>> as __spec_p::LeafField>::Space: __spec_p::Padded,
        GenericReq·tokens: __spec_p::ServedWhole<Rec>,
        GenericReq·label: __spec_p::SourceServedBy<Rec>,
        <GenericReq·label as __spec_p::SourceServedBy<
            Rec,
        >>::Space: __spec_p::FormatAs<<Batch<R> as __spec_p::LeafField>::Space>,
        GenericReq·label: __spec_p::ServedWhole<Rec>,
    {
        fn serve_from(
            __spec_record: &Rec,
            __spec_cache: &mut __spec_p::ServeCache,
        ) -> Self {
            let _ = (&__spec_record, &__spec_cache);
            Self {
                tokens: <GenericReq·tokens as __spec_p::ServedWhole<
                    Rec,
                >>::serve_value::<Batch<IndexSeq<50>>>(),
                label: <GenericReq·label as __spec_p::ServedWhole<
                    Rec,
                >>::serve_value::<Batch<R>>(),
            }
        }
    }
    impl<R: Space, Rec> __spec_p::GatherFrom<Rec> for GenericReq<R>
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        R: __spec_p::Space,
        for<'__spec_w> Batch<IndexSeq<50>>: __spec_p::Node<__spec_p::Src<'t'>>,
        for<'__spec_w> Batch<
            Image<4, 5, 2, 40>,
        >: __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>,
        Batch<R>: __spec_p::Node<__spec_p::Src<'y'>>,
        GenericReq·tokens: __spec_p::SourceServedBy<Rec>,
        <GenericReq·tokens as __spec_p::SourceServedBy<
            Rec,
        >>::Space: __spec_p::FormatAs<
            <Batch<IndexSeq<50>> as __spec_p::LeafField>::Space,
        >,
        <Batch<IndexSeq<50>> as __spec_p::LeafField>::Space: __spec_p::Padded,
        for<'__spec_x> Batch<
            IndexSeq<50>,
        >: __spec_p::GatherInto<<Batch<IndexSeq<50>> as __spec_p::LeafField>::Space>,
        GenericReq·label: __spec_p::SourceServedBy<Rec>,
        <GenericReq·label as __spec_p::SourceServedBy<
            Rec,
        >>::Space: __spec_p::FormatAs<<Batch<R> as __spec_p::LeafField>::Space>,
        for<'__spec_x> Batch<
            R,
        >: __spec_p::GatherInto<<Batch<R> as __spec_p::LeafField>::Space>,
    {
        fn gather_from(
            __spec_out: &mut Self,
            __spec_record: &Rec,
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
            let __spec_collate_tokens = &__spec_p::Collate::<
                <<Batch<
                    IndexSeq<50>,
                > as __spec_p::LeafField>::Space as __spec_p::Space>::Elem,
            > {
                pad: <<<Batch<
                    IndexSeq<50>,
                > as __spec_p::LeafField>::Space as __spec_p::Space>::Elem as __spec_p::Element>::ZERO,
                steps: __spec_p::core::option::Option::Some(8usize),
                truncate: false,
            };
            <__spec_p::LeafVia<
                __spec_p::Src<'t'>,
            > as __spec_p::LeafConvert<
                <GenericReq·tokens as __spec_p::SourceServedBy<Rec>>::Space,
                <Batch<IndexSeq<50>> as __spec_p::LeafField>::Space,
            >>::gather(
                <<GenericReq·tokens as __spec_p::SourceServedBy<
                    Rec,
                >>::Via as __spec_p::SourceOf<Rec>>::view(__spec_record),
                __spec_rows,
                __spec_p::core::clone::Clone::clone(&__spec_zero),
                &mut __spec_out.tokens,
                __spec_collate_tokens,
            )?;
            let __spec_collate_label = &__spec_p::Collate::DEFAULT;
            <__spec_p::LeafVia<
                __spec_p::Src<'y'>,
            > as __spec_p::LeafConvert<
                <GenericReq·label as __spec_p::SourceServedBy<Rec>>::Space,
                <Batch<R> as __spec_p::LeafField>::Space,
            >>::gather(
                <<GenericReq·label as __spec_p::SourceServedBy<
                    Rec,
                >>::Via as __spec_p::SourceOf<Rec>>::view(__spec_record),
                __spec_rows,
                __spec_p::core::clone::Clone::clone(&__spec_zero),
                &mut __spec_out.label,
                __spec_collate_label,
            )?;
            __spec_p::core::result::Result::Ok(())
        }
        fn check_fits(
            __spec_record: &Rec,
        ) -> __spec_p::core::result::Result<(), __spec_p::DataError> {
            let _ = &__spec_record;
            let __spec_collate_tokens = &__spec_p::Collate::<
                <<Batch<
                    IndexSeq<50>,
                > as __spec_p::LeafField>::Space as __spec_p::Space>::Elem,
            > {
                pad: <<<Batch<
                    IndexSeq<50>,
                > as __spec_p::LeafField>::Space as __spec_p::Space>::Elem as __spec_p::Element>::ZERO,
                steps: __spec_p::core::option::Option::Some(8usize),
                truncate: false,
            };
            <__spec_p::LeafVia<
                __spec_p::Src<'t'>,
            > as __spec_p::LeafConvert<
                <GenericReq·tokens as __spec_p::SourceServedBy<Rec>>::Space,
                <Batch<IndexSeq<50>> as __spec_p::LeafField>::Space,
            >>::fits(
                <<GenericReq·tokens as __spec_p::SourceServedBy<
                    Rec,
                >>::Via as __spec_p::SourceOf<Rec>>::view(__spec_record),
                __spec_collate_tokens,
            )?;
            let __spec_collate_label = &__spec_p::Collate::DEFAULT;
            <__spec_p::LeafVia<
                __spec_p::Src<'y'>,
            > as __spec_p::LeafConvert<
                <GenericReq·label as __spec_p::SourceServedBy<Rec>>::Space,
                <Batch<R> as __spec_p::LeafField>::Space,
            >>::fits(
                <<GenericReq·label as __spec_p::SourceServedBy<
                    Rec,
                >>::Via as __spec_p::SourceOf<Rec>>::view(__spec_record),
                __spec_collate_label,
            )?;
            __spec_p::core::result::Result::Ok(())
        }
    }
    impl<R: Space, Rec> __spec_p::ProvidedBy<Rec> for GenericReq<R>
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        R: __spec_p::Space,
        for<'__spec_w> Batch<IndexSeq<50>>: __spec_p::Node<__spec_p::Src<'t'>>,
        for<'__spec_w> Batch<
            Image<4, 5, 2, 40>,
        >: __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>,
        Batch<R>: __spec_p::Node<__spec_p::Src<'y'>>,
        Self: __spec_p::GatherFrom<Rec>,
        for<'__spec_x> <Self as __spec_p::Node<()>>::Flat: __spec_p::AllocFlat,
    {}
    impl<R: Space> __spec_p::GatherSame for GenericReq<R>
    where
        R: __spec_p::Space,
        for<'__spec_w> Batch<IndexSeq<50>>: __spec_p::Node<__spec_p::Src<'t'>>,
        for<'__spec_w> Batch<
            Image<4, 5, 2, 40>,
        >: __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>,
        Batch<R>: __spec_p::Node<__spec_p::Src<'y'>>,
        for<'__spec_x> Batch<IndexSeq<50>>: __spec_p::GatherSame,
        for<'__spec_x> Batch<Image<4, 5, 2, 40>>: __spec_p::GatherSame,
        for<'__spec_x> Batch<R>: __spec_p::GatherSame,
    {
        fn gather_same(
            __spec_out: &mut Self,
            __spec_from: &Self,
            __spec_rows: &[usize],
            __spec_at: usize,
        ) {
            let _ = (&__spec_out, &__spec_from, &__spec_rows, &__spec_at);
            <Batch<
                IndexSeq<50>,
            > as __spec_p::GatherSame>::gather_same(
                &mut __spec_out.tokens,
                &__spec_from.tokens,
                __spec_rows,
                __spec_at,
            );
            <Batch<
                Image<4, 5, 2, 40>,
            > as __spec_p::GatherSame>::gather_same(
                &mut __spec_out.image,
                &__spec_from.image,
                __spec_rows,
                __spec_at,
            );
            <Batch<
                R,
            > as __spec_p::GatherSame>::gather_same(
                &mut __spec_out.label,
                &__spec_from.label,
                __spec_rows,
                __spec_at,
            );
        }
    }
    impl<R: Space> __spec_p::LoadRecord for GenericReq<R>
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        R: __spec_p::Space,
        for<'__spec_w> Batch<IndexSeq<50>>: __spec_p::Node<__spec_p::Src<'t'>>,
        for<'__spec_w> Batch<
            Image<4, 5, 2, 40>,
        >: __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>,
        Batch<R>: __spec_p::Node<__spec_p::Src<'y'>>,
        for<'__spec_x> Batch<IndexSeq<50>>: __spec_p::LoadField,
        for<'__spec_x> Batch<Image<4, 5, 2, 40>>: __spec_p::LoadField,
        for<'__spec_x> Batch<R>: __spec_p::LoadField,
    {
        fn load_record<__SpecL: __spec_p::LeafSource>(
            __spec_source: &mut __SpecL,
            __spec_leaves: &mut __spec_p::core::slice::Iter<'_, __spec_p::Described>,
        ) -> __spec_p::core::result::Result<Self, __SpecL::Error> {
            let _ = (&__spec_source, &__spec_leaves);
            __spec_p::core::result::Result::Ok(Self {
                tokens: <Batch<
                    IndexSeq<50>,
                > as __spec_p::LoadField>::load_field(__spec_source, __spec_leaves)?,
                image: <Batch<
                    Image<4, 5, 2, 40>,
                > as __spec_p::LoadField>::load_field(__spec_source, __spec_leaves)?,
                label: <Batch<
                    R,
                > as __spec_p::LoadField>::load_field(__spec_source, __spec_leaves)?,
            })
        }
    }
    impl<R: Space, Rec, __SpecK> __spec_p::ReadField<Rec, __SpecK> for GenericReq<R>
    where
        for<'__spec_x> Self: __spec_p::Reads<Rec>,
        R: __spec_p::Space,
        for<'__spec_w> Batch<IndexSeq<50>>: __spec_p::Node<__spec_p::Src<'t'>>,
        for<'__spec_w> Batch<
            Image<4, 5, 2, 40>,
        >: __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>,
        Batch<R>: __spec_p::Node<__spec_p::Src<'y'>>,
    {}
    impl<R: Space, Rec, __SpecK> __spec_p::ServeField<Rec, __SpecK> for GenericReq<R>
    where
        for<'__spec_x> Self: __spec_p::ServeFrom<Rec>,
        R: __spec_p::Space,
        for<'__spec_w> Batch<IndexSeq<50>>: __spec_p::Node<__spec_p::Src<'t'>>,
        for<'__spec_w> Batch<
            Image<4, 5, 2, 40>,
        >: __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>,
        Batch<R>: __spec_p::Node<__spec_p::Src<'y'>>,
    {
        fn serve_field(
            __spec_record: &Rec,
            __spec_cache: &mut __spec_p::ServeCache,
        ) -> Self {
            <Self as __spec_p::ServeFrom<Rec>>::serve_from(__spec_record, __spec_cache)
        }
    }
    impl<R: Space, Rec, __SpecK> __spec_p::GatherField<Rec, __SpecK> for GenericReq<R>
    where
        for<'__spec_x> Self: __spec_p::GatherFrom<Rec>,
        R: __spec_p::Space,
        for<'__spec_w> Batch<IndexSeq<50>>: __spec_p::Node<__spec_p::Src<'t'>>,
        for<'__spec_w> Batch<
            Image<4, 5, 2, 40>,
        >: __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>,
        Batch<R>: __spec_p::Node<__spec_p::Src<'y'>>,
    {
        fn gather_field(
            &mut self,
            __spec_record: &Rec,
            __spec_rows: &[usize],
            __spec_zero: __spec_p::core::ops::Range<usize>,
            __spec_draws: __spec_p::Draws<'_>,
        ) -> __spec_p::core::result::Result<(), __spec_p::DataError> {
            <Self as __spec_p::GatherFrom<
                Rec,
            >>::gather_from(self, __spec_record, __spec_rows, __spec_zero, __spec_draws)
        }
        fn check_field(
            __spec_record: &Rec,
        ) -> __spec_p::core::result::Result<(), __spec_p::DataError> {
            <Self as __spec_p::GatherFrom<Rec>>::check_fits(__spec_record)
        }
    }
    #[automatically_derived]
    impl<R: Space, M: __spec_p::LeafMapper> __spec_p::MapSpec<M> for GenericReq<R>
    where
        R: __spec_p::Space,
        for<'__spec_w> Batch<IndexSeq<50>>: __spec_p::Node<__spec_p::Src<'t'>>,
        for<'__spec_w> Batch<
            Image<4, 5, 2, 40>,
        >: __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>,
        Batch<R>: __spec_p::Node<__spec_p::Src<'y'>>,
        Batch<IndexSeq<50>>: __spec_p::MapSpec<M>,
        Batch<Image<4, 5, 2, 40>>: __spec_p::MapSpec<M>,
        Batch<R>: __spec_p::MapSpec<M>,
    {
        type Out = GenericReqMapped<
            <Batch<IndexSeq<50>> as __spec_p::MapSpec<M>>::Out,
            <Batch<Image<4, 5, 2, 40>> as __spec_p::MapSpec<M>>::Out,
            <Batch<R> as __spec_p::MapSpec<M>>::Out,
        >;
        fn map_spec(
            self,
            __spec_mapper: &mut M,
        ) -> __spec_p::core::result::Result<
            Self::Out,
            <M as __spec_p::LeafMapper>::Error,
        > {
            let _ = &__spec_mapper;
            __spec_p::core::result::Result::Ok(GenericReqMapped {
                tokens: <Batch<
                    IndexSeq<50>,
                > as __spec_p::MapSpec<M>>::map_spec(self.tokens, __spec_mapper)?,
                image: <Batch<
                    Image<4, 5, 2, 40>,
                > as __spec_p::MapSpec<M>>::map_spec(self.image, __spec_mapper)?,
                label: <Batch<
                    R,
                > as __spec_p::MapSpec<M>>::map_spec(self.label, __spec_mapper)?,
            })
        }
    }
    #[automatically_derived]
    #[diagnostic::do_not_recommend]
    impl<R: Space> __spec_p::NodeMut for GenericReq<R>
    where
        R: __spec_p::Space,
        for<'__spec_w> Batch<IndexSeq<50>>: __spec_p::Node<__spec_p::Src<'t'>>,
        for<'__spec_w> Batch<
            Image<4, 5, 2, 40>,
        >: __spec_p::Node<__spec_p::Src<'i', 'm', 'g'>>,
        Batch<R>: __spec_p::Node<__spec_p::Src<'y'>>,
        for<'__spec_x> Batch<IndexSeq<50>>: __spec_p::NodeMut,
        for<'__spec_x> Batch<Image<4, 5, 2, 40>>: __spec_p::NodeMut,
        for<'__spec_x> Batch<R>: __spec_p::NodeMut,
    {
        type ViewsMut<'__spec_a> = GenericReqMapped<
            <Batch<IndexSeq<50>> as __spec_p::NodeMut>::ViewsMut<'__spec_a>,
            <Batch<Image<4, 5, 2, 40>> as __spec_p::NodeMut>::ViewsMut<'__spec_a>,
            <Batch<R> as __spec_p::NodeMut>::ViewsMut<'__spec_a>,
        >
        where
            Self: '__spec_a;
        fn node_views_mut(
            &mut self,
            __spec_rows: __spec_p::core::ops::Range<usize>,
        ) -> Self::ViewsMut<'_> {
            let _ = &__spec_rows;
            GenericReqMapped {
                tokens: <Batch<
                    IndexSeq<50>,
                > as __spec_p::NodeMut>::node_views_mut(
                    &mut self.tokens,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                image: <Batch<
                    Image<4, 5, 2, 40>,
                > as __spec_p::NodeMut>::node_views_mut(
                    &mut self.image,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                label: <Batch<
                    R,
                > as __spec_p::NodeMut>::node_views_mut(
                    &mut self.label,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
            }
        }
    }
};
///The fields of [`GenericReq`], each made into something else: one type parameter per field, in field order. Generated by `#[derive(DataSpec)]`; filled with a framework's tensors by `MapSpec::map_spec` (see the `tensors` module of batchspec), with mutable views of some rows by `Dataset::rows_mut` and `Dataset::sample_mut`, and with views of a projection by `Projection::rows`.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
#[allow(dead_code)]
struct GenericReqMapped<Tokens, Image, Label> {
    ///The field `tokens` of [`GenericReq`], made into something else (a tensor, a view).
    tokens: Tokens,
    ///The field `image` of [`GenericReq`], made into something else (a tensor, a view).
    image: Image,
    ///The field `label` of [`GenericReq`], made into something else (a tensor, a view).
    label: Label,
}
#[doc(hidden)]
#[allow(dead_code, unreachable_pub, non_camel_case_types)]
enum GenericReq·tokens {}
#[doc(hidden)]
#[allow(dead_code, unreachable_pub, non_camel_case_types)]
enum GenericReq·image {}
#[doc(hidden)]
#[allow(dead_code, unreachable_pub, non_camel_case_types)]
enum GenericReq·label {}
