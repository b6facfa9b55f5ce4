// The expansion of tests/expand/misplaced.rs; written by `BATCHSPEC_BLESS=1 cargo test`.
// tokens: bb489b6437424701
// spans: f1b16f81f491fc82
#[doc(hidden)]
#[allow(non_camel_case_types, unused_qualifications, clippy::all)]
const _: () = {
    use ::batchspec::__private as __spec_p;
    #[allow(dead_code)]
    fn __spec_fields()
    where
        (Batch<Vector<4>>, Batch<Vector<2>>): __spec_p::SpecField,
        Labelled: __spec_p::SpecField,
        Batch<IndexSeq<50>>: __spec_p::SpecField,
        Batch<Labels<3>>: __spec_p::SpecField,
    {}
    #[automatically_derived]
    #[diagnostic::do_not_recommend]
    impl<__SpecSrc> __spec_p::Node<__SpecSrc> for Misplaced
    where
        for<'__spec_w> (
            Batch<Vector<4>>,
            Batch<Vector<2>>,
        ): __spec_p::Node<__spec_p::Src<'v'>>,
        for<'__spec_w> Labelled: __spec_p::Node<__spec_p::Src<'i', 'n', 'n', 'e', 'r'>>,
        for<'__spec_w> Batch<IndexSeq<50>>: __spec_p::Node<__spec_p::Src<'t'>>,
        for<'__spec_w> Batch<
            Labels<3>,
        >: __spec_p::Node<__spec_p::Src<'t', 'y', 'p', 'e'>>,
    {
        type Spaces = (
            <(
                Batch<Vector<4>>,
                Batch<Vector<2>>,
            ) as __spec_p::Node<__spec_p::Src<'v'>>>::Spaces,
            <Labelled as __spec_p::Node<__spec_p::Src<'i', 'n', 'n', 'e', 'r'>>>::Spaces,
            <Batch<IndexSeq<50>> as __spec_p::Node<__spec_p::Src<'t'>>>::Spaces,
            <Batch<
                Labels<3>,
            > as __spec_p::Node<__spec_p::Src<'t', 'y', 'p', 'e'>>>::Spaces,
        );
        type Sources = (
            <(
                Batch<Vector<4>>,
                Batch<Vector<2>>,
            ) as __spec_p::Node<__spec_p::Src<'v'>>>::Sources,
            <Labelled as __spec_p::Node<
                __spec_p::Src<'i', 'n', 'n', 'e', 'r'>,
            >>::Sources,
            <Batch<IndexSeq<50>> as __spec_p::Node<__spec_p::Src<'t'>>>::Sources,
            <Batch<
                Labels<3>,
            > as __spec_p::Node<__spec_p::Src<'t', 'y', 'p', 'e'>>>::Sources,
        );
        type Leaves = __spec_p::LeafPair<
            __spec_p::LeafPair<
                <(
                    Batch<Vector<4>>,
                    Batch<Vector<2>>,
                ) as __spec_p::Node<__spec_p::Src<'v'>>>::Leaves,
                <Labelled as __spec_p::Node<
                    __spec_p::Src<'i', 'n', 'n', 'e', 'r'>,
                >>::Leaves,
            >,
            __spec_p::LeafPair<
                <Batch<IndexSeq<50>> as __spec_p::Node<__spec_p::Src<'t'>>>::Leaves,
                <Batch<
                    Labels<3>,
                > as __spec_p::Node<__spec_p::Src<'t', 'y', 'p', 'e'>>>::Leaves,
            >,
        >;
        type Flat = __spec_p::Pair<
            __spec_p::Pair<
                <(
                    Batch<Vector<4>>,
                    Batch<Vector<2>>,
                ) as __spec_p::Node<__spec_p::Src<'v'>>>::Flat,
                <Labelled as __spec_p::Node<
                    __spec_p::Src<'i', 'n', 'n', 'e', 'r'>,
                >>::Flat,
            >,
            __spec_p::Pair<
                <Batch<IndexSeq<50>> as __spec_p::Node<__spec_p::Src<'t'>>>::Flat,
                <Batch<
                    Labels<3>,
                > as __spec_p::Node<__spec_p::Src<'t', 'y', 'p', 'e'>>>::Flat,
            >,
        >;
        type FlatRef<'__spec_a> = __spec_p::Pair<
            __spec_p::Pair<
                <(
                    Batch<Vector<4>>,
                    Batch<Vector<2>>,
                ) as __spec_p::Node<__spec_p::Src<'v'>>>::FlatRef<'__spec_a>,
                <Labelled as __spec_p::Node<
                    __spec_p::Src<'i', 'n', 'n', 'e', 'r'>,
                >>::FlatRef<'__spec_a>,
            >,
            __spec_p::Pair<
                <Batch<
                    IndexSeq<50>,
                > as __spec_p::Node<__spec_p::Src<'t'>>>::FlatRef<'__spec_a>,
                <Batch<
                    Labels<3>,
                > as __spec_p::Node<
                    __spec_p::Src<'t', 'y', 'p', 'e'>,
                >>::FlatRef<'__spec_a>,
            >,
        >
        where
            Self: '__spec_a;
        type FlatMut<'__spec_a> = __spec_p::Pair<
            __spec_p::Pair<
                <(
                    Batch<Vector<4>>,
                    Batch<Vector<2>>,
                ) as __spec_p::Node<__spec_p::Src<'v'>>>::FlatMut<'__spec_a>,
                <Labelled as __spec_p::Node<
                    __spec_p::Src<'i', 'n', 'n', 'e', 'r'>,
                >>::FlatMut<'__spec_a>,
            >,
            __spec_p::Pair<
                <Batch<
                    IndexSeq<50>,
                > as __spec_p::Node<__spec_p::Src<'t'>>>::FlatMut<'__spec_a>,
                <Batch<
                    Labels<3>,
                > as __spec_p::Node<
                    __spec_p::Src<'t', 'y', 'p', 'e'>,
                >>::FlatMut<'__spec_a>,
            >,
        >
        where
            Self: '__spec_a;
        type Mapped<__SpecT> = (
            <(
                Batch<Vector<4>>,
                Batch<Vector<2>>,
            ) as __spec_p::Node<__spec_p::Src<'v'>>>::Mapped<__SpecT>,
            <Labelled as __spec_p::Node<
                __spec_p::Src<'i', 'n', 'n', 'e', 'r'>,
            >>::Mapped<__SpecT>,
            <Batch<IndexSeq<50>> as __spec_p::Node<__spec_p::Src<'t'>>>::Mapped<__SpecT>,
            <Batch<
                Labels<3>,
            > as __spec_p::Node<__spec_p::Src<'t', 'y', 'p', 'e'>>>::Mapped<__SpecT>,
        );
        type Views<'__spec_a> = MisplacedMapped<
            <(
                Batch<Vector<4>>,
                Batch<Vector<2>>,
            ) as __spec_p::Node<__spec_p::Src<'v'>>>::Views<'__spec_a>,
            <Labelled as __spec_p::Node<
                __spec_p::Src<'i', 'n', 'n', 'e', 'r'>,
            >>::Views<'__spec_a>,
            <Batch<
                IndexSeq<50>,
            > as __spec_p::Node<__spec_p::Src<'t'>>>::Views<'__spec_a>,
            <Batch<
                Labels<3>,
            > as __spec_p::Node<__spec_p::Src<'t', 'y', 'p', 'e'>>>::Views<'__spec_a>,
        >
        where
            Self: '__spec_a;
        const LEAVES: usize = 0
            + <(
                Batch<Vector<4>>,
                Batch<Vector<2>>,
            ) as __spec_p::Node<__spec_p::Src<'v'>>>::LEAVES
            + <Labelled as __spec_p::Node<
                __spec_p::Src<'i', 'n', 'n', 'e', 'r'>,
            >>::LEAVES
            + <Batch<IndexSeq<50>> as __spec_p::Node<__spec_p::Src<'t'>>>::LEAVES
            + <Batch<
                Labels<3>,
            > as __spec_p::Node<__spec_p::Src<'t', 'y', 'p', 'e'>>>::LEAVES;
        const TOTAL: __spec_p::core::option::Option<usize> = __spec_p::__add_features(
            <(
                Batch<Vector<4>>,
                Batch<Vector<2>>,
            ) as __spec_p::Node<__spec_p::Src<'v'>>>::TOTAL,
            __spec_p::__add_features(
                <Labelled as __spec_p::Node<
                    __spec_p::Src<'i', 'n', 'n', 'e', 'r'>,
                >>::TOTAL,
                __spec_p::__add_features(
                    <Batch<IndexSeq<50>> as __spec_p::Node<__spec_p::Src<'t'>>>::TOTAL,
                    __spec_p::__add_features(
                        <Batch<
                            Labels<3>,
                        > as __spec_p::Node<__spec_p::Src<'t', 'y', 'p', 'e'>>>::TOTAL,
                        __spec_p::core::option::Option::Some(0usize),
                    ),
                ),
            ),
        );
        fn describe_node(
            __spec_batch: usize,
            __spec_path: &__spec_p::Path<'_>,
            __spec_out: &mut __spec_p::Vec<__spec_p::Described>,
        ) {
            <(
                Batch<Vector<4>>,
                Batch<Vector<2>>,
            ) as __spec_p::Node<
                __spec_p::Src<'v'>,
            >>::describe_node(
                __spec_batch,
                &__spec_p::Path::Field(__spec_path, "views"),
                __spec_out,
            );
            <Labelled as __spec_p::Node<
                __spec_p::Src<'i', 'n', 'n', 'e', 'r'>,
            >>::describe_node(
                __spec_batch,
                &__spec_p::Path::Field(__spec_path, "inner"),
                __spec_out,
            );
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
                Labels<3>,
            > as __spec_p::Node<
                __spec_p::Src<'t', 'y', 'p', 'e'>,
            >>::describe_node(
                __spec_batch,
                &__spec_p::Path::Field(__spec_path, "type"),
                __spec_out,
            );
        }
        fn check_node(
            &self,
            __spec_path: &__spec_p::Path<'_>,
            __spec_sizes: &mut __spec_p::SizeCheck,
        ) -> __spec_p::core::result::Result<(), __spec_p::SpecError> {
            <(
                Batch<Vector<4>>,
                Batch<Vector<2>>,
            ) as __spec_p::Node<
                __spec_p::Src<'v'>,
            >>::check_node(
                &self.views,
                &__spec_p::Path::Field(__spec_path, "views"),
                __spec_sizes,
            )?;
            <Labelled as __spec_p::Node<
                __spec_p::Src<'i', 'n', 'n', 'e', 'r'>,
            >>::check_node(
                &self.inner,
                &__spec_p::Path::Field(__spec_path, "inner"),
                __spec_sizes,
            )?;
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
                Labels<3>,
            > as __spec_p::Node<
                __spec_p::Src<'t', 'y', 'p', 'e'>,
            >>::check_node(
                &self.r#type,
                &__spec_p::Path::Field(__spec_path, "type"),
                __spec_sizes,
            )?;
            __spec_p::core::result::Result::Ok(())
        }
        #[inline(always)]
        fn node_flatten(self) -> Self::Flat {
            __spec_p::Pair {
                first: __spec_p::Pair {
                    first: <(
                        Batch<Vector<4>>,
                        Batch<Vector<2>>,
                    ) as __spec_p::Node<__spec_p::Src<'v'>>>::node_flatten(self.views),
                    second: <Labelled as __spec_p::Node<
                        __spec_p::Src<'i', 'n', 'n', 'e', 'r'>,
                    >>::node_flatten(self.inner),
                },
                second: __spec_p::Pair {
                    first: <Batch<
                        IndexSeq<50>,
                    > as __spec_p::Node<__spec_p::Src<'t'>>>::node_flatten(self.tokens),
                    second: <Batch<
                        Labels<3>,
                    > as __spec_p::Node<
                        __spec_p::Src<'t', 'y', 'p', 'e'>,
                    >>::node_flatten(self.r#type),
                },
            }
        }
        #[inline(always)]
        fn node_nest(__spec_flat: Self::Flat) -> Self {
            let __spec_p::Pair {
                first: __spec_p::Pair { first: __spec_part0, second: __spec_part1 },
                second: __spec_p::Pair { first: __spec_part2, second: __spec_part3 },
            } = __spec_flat;
            Self {
                views: <(
                    Batch<Vector<4>>,
                    Batch<Vector<2>>,
                ) as __spec_p::Node<__spec_p::Src<'v'>>>::node_nest(__spec_part0),
                inner: <Labelled as __spec_p::Node<
                    __spec_p::Src<'i', 'n', 'n', 'e', 'r'>,
                >>::node_nest(__spec_part1),
                tokens: <Batch<
                    IndexSeq<50>,
                > as __spec_p::Node<__spec_p::Src<'t'>>>::node_nest(__spec_part2),
                r#type: <Batch<
                    Labels<3>,
                > as __spec_p::Node<
                    __spec_p::Src<'t', 'y', 'p', 'e'>,
                >>::node_nest(__spec_part3),
            }
        }
        #[inline(always)]
        fn node_flatten_ref(&self) -> Self::FlatRef<'_> {
            __spec_p::Pair {
                first: __spec_p::Pair {
                    first: <(
                        Batch<Vector<4>>,
                        Batch<Vector<2>>,
                    ) as __spec_p::Node<
                        __spec_p::Src<'v'>,
                    >>::node_flatten_ref(&self.views),
                    second: <Labelled as __spec_p::Node<
                        __spec_p::Src<'i', 'n', 'n', 'e', 'r'>,
                    >>::node_flatten_ref(&self.inner),
                },
                second: __spec_p::Pair {
                    first: <Batch<
                        IndexSeq<50>,
                    > as __spec_p::Node<
                        __spec_p::Src<'t'>,
                    >>::node_flatten_ref(&self.tokens),
                    second: <Batch<
                        Labels<3>,
                    > as __spec_p::Node<
                        __spec_p::Src<'t', 'y', 'p', 'e'>,
                    >>::node_flatten_ref(&self.r#type),
                },
            }
        }
        #[inline(always)]
        fn node_flatten_mut(&mut self) -> Self::FlatMut<'_> {
            __spec_p::Pair {
                first: __spec_p::Pair {
                    first: <(
                        Batch<Vector<4>>,
                        Batch<Vector<2>>,
                    ) as __spec_p::Node<
                        __spec_p::Src<'v'>,
                    >>::node_flatten_mut(&mut self.views),
                    second: <Labelled as __spec_p::Node<
                        __spec_p::Src<'i', 'n', 'n', 'e', 'r'>,
                    >>::node_flatten_mut(&mut self.inner),
                },
                second: __spec_p::Pair {
                    first: <Batch<
                        IndexSeq<50>,
                    > as __spec_p::Node<
                        __spec_p::Src<'t'>,
                    >>::node_flatten_mut(&mut self.tokens),
                    second: <Batch<
                        Labels<3>,
                    > as __spec_p::Node<
                        __spec_p::Src<'t', 'y', 'p', 'e'>,
                    >>::node_flatten_mut(&mut self.r#type),
                },
            }
        }
        fn node_views(
            &self,
            __spec_rows: __spec_p::core::ops::Range<usize>,
        ) -> Self::Views<'_> {
            let _ = &__spec_rows;
            MisplacedMapped {
                views: <(
                    Batch<Vector<4>>,
                    Batch<Vector<2>>,
                ) as __spec_p::Node<
                    __spec_p::Src<'v'>,
                >>::node_views(
                    &self.views,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                inner: <Labelled as __spec_p::Node<
                    __spec_p::Src<'i', 'n', 'n', 'e', 'r'>,
                >>::node_views(
                    &self.inner,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                tokens: <Batch<
                    IndexSeq<50>,
                > as __spec_p::Node<
                    __spec_p::Src<'t'>,
                >>::node_views(
                    &self.tokens,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                r#type: <Batch<
                    Labels<3>,
                > as __spec_p::Node<
                    __spec_p::Src<'t', 'y', 'p', 'e'>,
                >>::node_views(
                    &self.r#type,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
            }
        }
        fn node_nest_mapped<__SpecT, __SpecN: __spec_p::core::ops::FnMut() -> __SpecT>(
            __spec_next: &mut __SpecN,
        ) -> Self::Mapped<__SpecT> {
            let _ = &__spec_next;
            (
                <(
                    Batch<Vector<4>>,
                    Batch<Vector<2>>,
                ) as __spec_p::Node<__spec_p::Src<'v'>>>::node_nest_mapped(__spec_next),
                <Labelled as __spec_p::Node<
                    __spec_p::Src<'i', 'n', 'n', 'e', 'r'>,
                >>::node_nest_mapped(__spec_next),
                <Batch<
                    IndexSeq<50>,
                > as __spec_p::Node<__spec_p::Src<'t'>>>::node_nest_mapped(__spec_next),
                <Batch<
                    Labels<3>,
                > as __spec_p::Node<
                    __spec_p::Src<'t', 'y', 'p', 'e'>,
                >>::node_nest_mapped(__spec_next),
            )
        }
        fn node_flatten_mapped<__SpecT, __SpecV: __spec_p::core::ops::FnMut(__SpecT)>(
            __spec_mapped: Self::Mapped<__SpecT>,
            __spec_visit: &mut __SpecV,
        ) {
            let _ = (&__spec_mapped, &__spec_visit);
            <(
                Batch<Vector<4>>,
                Batch<Vector<2>>,
            ) as __spec_p::Node<
                __spec_p::Src<'v'>,
            >>::node_flatten_mapped(__spec_mapped.0, __spec_visit);
            <Labelled as __spec_p::Node<
                __spec_p::Src<'i', 'n', 'n', 'e', 'r'>,
            >>::node_flatten_mapped(__spec_mapped.1, __spec_visit);
            <Batch<
                IndexSeq<50>,
            > as __spec_p::Node<
                __spec_p::Src<'t'>,
            >>::node_flatten_mapped(__spec_mapped.2, __spec_visit);
            <Batch<
                Labels<3>,
            > as __spec_p::Node<
                __spec_p::Src<'t', 'y', 'p', 'e'>,
            >>::node_flatten_mapped(__spec_mapped.3, __spec_visit);
        }
    }
    #[automatically_derived]
    impl __spec_p::DataSpec for Misplaced
    where
        for<'__spec_w> (
            Batch<Vector<4>>,
            Batch<Vector<2>>,
        ): __spec_p::Node<__spec_p::Src<'v'>>,
        for<'__spec_w> Labelled: __spec_p::Node<__spec_p::Src<'i', 'n', 'n', 'e', 'r'>>,
        for<'__spec_w> Batch<IndexSeq<50>>: __spec_p::Node<__spec_p::Src<'t'>>,
        for<'__spec_w> Batch<
            Labels<3>,
        >: __spec_p::Node<__spec_p::Src<'t', 'y', 'p', 'e'>>,
    {}
    impl __spec_p::HasSource<__spec_p::Src<'t'>> for Misplaced
    where
        for<'__spec_x> Batch<IndexSeq<50>>: __spec_p::LeafField,
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
    impl<__SpecF> __spec_p::HasSourceAs<__spec_p::Src<'t'>, __SpecF> for Misplaced {
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
    impl __spec_p::HasSource<__spec_p::Src<'t', 'y', 'p', 'e'>> for Misplaced
    where
        for<'__spec_x> Batch<Labels<3>>: __spec_p::LeafField,
    {
        type Space = <Batch<Labels<3>> as __spec_p::LeafField>::Space;
        type Field = Batch<Labels<3>>;
        #[inline]
        fn source_view(&self) -> __spec_p::SourceView<'_, Self::Space> {
            <Batch<Labels<3>> as __spec_p::LeafField>::leaf_field_view(&self.r#type)
        }
        #[inline]
        fn source_field(&self) -> &Self::Field {
            &self.r#type
        }
    }
    impl<__SpecF> __spec_p::HasSourceAs<__spec_p::Src<'t', 'y', 'p', 'e'>, __SpecF>
    for Misplaced {
        type Space = <Self as __spec_p::HasSource<
            __spec_p::Src<'t', 'y', 'p', 'e'>,
        >>::Space;
        type Field = <Self as __spec_p::HasSource<
            __spec_p::Src<'t', 'y', 'p', 'e'>,
        >>::Field;
        #[inline]
        fn source_view_as(&self) -> __spec_p::SourceView<'_, Self::Space> {
            <Self as __spec_p::HasSource<
                __spec_p::Src<'t', 'y', 'p', 'e'>,
            >>::source_view(self)
        }
        #[inline]
        fn source_field_as(&self) -> &Self::Field {
            <Self as __spec_p::HasSource<
                __spec_p::Src<'t', 'y', 'p', 'e'>,
            >>::source_field(self)
        }
    }
    ::core::compile_error! {
        "`augment` and `mixed_with` go on a batch field (`Batch<..>`), not on a tuple or a nested spec"
    }
    ::core::compile_error! {
        "`pad`, `pad_to`, `truncate`, `lengths_of` and `mask_of` go on a batch field (`Batch<..>` or `Ragged<..>`), not on a tuple or a nested spec"
    }
    ::core::compile_error! {
        "pad value 50 is not a label of `IndexSeq<50>`: its labels are 0..50"
    }
    impl __spec_p::FieldSource for Misplaced·tokens {
        type Key = __spec_p::Src<'t'>;
        type Family = __spec_p::FamilyOf<Batch<IndexSeq<50>>>;
    }
    impl __spec_p::FieldSource for Misplaced·type {
        type Key = __spec_p::Src<'t', 'y', 'p', 'e'>;
        type Family = __spec_p::FamilyOf<Batch<Labels<3>>>;
    }
    impl<R> __spec_p::ProjectFrom<R> for Misplaced
    where
        Misplaced·views: __spec_p::LentByProjection<R>,
        for<'__spec_x> Labelled: __spec_p::ProjectFrom<R>,
        Misplaced·tokens: __spec_p::SourceServedBy<R>,
        <Misplaced·tokens as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::LendsAs<
            <Batch<IndexSeq<50>> as __spec_p::LeafField>::Space,
        >,
        for<'__spec_x> <Misplaced·tokens as __spec_p::SourceServedBy<
            R,
        >>::Field: __spec_p::ProjectAs<'__spec_x, Batch<IndexSeq<50>>>,
        Misplaced·type: __spec_p::SourceServedBy<R>,
        <Misplaced·type as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::LendsAs<<Batch<Labels<3>> as __spec_p::LeafField>::Space>,
        for<'__spec_x> <Misplaced·type as __spec_p::SourceServedBy<
            R,
        >>::Field: __spec_p::ProjectAs<'__spec_x, Batch<Labels<3>>>,
    {
        type Views<'__spec_a> = MisplacedMapped<
            <Misplaced·views as __spec_p::LentByProjection<R>>::View,
            <Labelled as __spec_p::ProjectFrom<R>>::Views<'__spec_a>,
            <<Misplaced·tokens as __spec_p::SourceServedBy<
                R,
            >>::Field as __spec_p::ProjectAs<'__spec_a, Batch<IndexSeq<50>>>>::View,
            <<Misplaced·type as __spec_p::SourceServedBy<
                R,
            >>::Field as __spec_p::ProjectAs<'__spec_a, Batch<Labels<3>>>>::View,
        >
        where
            R: '__spec_a;
        fn project_rows(
            __spec_record: &R,
            __spec_rows: __spec_p::core::ops::Range<usize>,
        ) -> Self::Views<'_> {
            let _ = (&__spec_record, &__spec_rows);
            MisplacedMapped {
                views: <Misplaced·views as __spec_p::LentByProjection<R>>::lend(),
                inner: <Labelled as __spec_p::ProjectFrom<
                    R,
                >>::project_rows(
                    __spec_record,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                tokens: <<Misplaced·tokens as __spec_p::SourceServedBy<
                    R,
                >>::Field as __spec_p::ProjectAs<
                    '_,
                    Batch<IndexSeq<50>>,
                >>::project(
                    <<Misplaced·tokens as __spec_p::SourceServedBy<
                        R,
                    >>::Via as __spec_p::SourceOf<R>>::field(__spec_record),
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                r#type: <<Misplaced·type as __spec_p::SourceServedBy<
                    R,
                >>::Field as __spec_p::ProjectAs<
                    '_,
                    Batch<Labels<3>>,
                >>::project(
                    <<Misplaced·type as __spec_p::SourceServedBy<
                        R,
                    >>::Via as __spec_p::SourceOf<R>>::field(__spec_record),
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
            }
        }
    }
    impl<R> __spec_p::Reads<R> for Misplaced
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        for<'__spec_x> (
            Batch<Vector<4>>,
            Batch<Vector<2>>,
        ): __spec_p::ReadField<R, __spec_p::Src<'v'>>,
        for<'__spec_x> Labelled: __spec_p::Reads<R>,
        Misplaced·tokens: __spec_p::SourceServedBy<R>,
        <Misplaced·tokens as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<
            <Batch<IndexSeq<50>> as __spec_p::LeafField>::Space,
        >,
        Misplaced·type: __spec_p::SourceServedBy<R>,
        <Misplaced·type as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<<Batch<Labels<3>> as __spec_p::LeafField>::Space>,
    {}
    impl<R> __spec_p::ServeFrom<R> for Misplaced
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        for<'__spec_x> (
            Batch<Vector<4>>,
            Batch<Vector<2>>,
        ): __spec_p::ServeField<R, __spec_p::Src<'v'>>,
        for<'__spec_x> Labelled: __spec_p::ServeFrom<R>,
        Misplaced·tokens: __spec_p::SourceServedBy<R>,
        <Misplaced·tokens as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<
            <Batch<IndexSeq<50>> as __spec_p::LeafField>::Space,
        >,
        Misplaced·tokens: __spec_p::ServedWhole<R>,
        Misplaced·type: __spec_p::SourceServedBy<R>,
        <Misplaced·type as __spec_p::SourceServedBy<
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
                views: <(
                    Batch<Vector<4>>,
                    Batch<Vector<2>>,
                ) as __spec_p::ServeField<
                    R,
                    __spec_p::Src<'v'>,
                >>::serve_field(__spec_record, __spec_cache),
                inner: <Labelled as __spec_p::ServeFrom<
                    R,
                >>::serve_from(__spec_record, __spec_cache),
                tokens: <Misplaced·tokens as __spec_p::ServedWhole<
                    R,
                >>::serve_value::<Batch<IndexSeq<50>>>(),
                r#type: <Batch<
                    Labels<3>,
                > as __spec_p::FromShared<
                    <Batch<Labels<3>> as __spec_p::LeafField>::Space,
                >>::from_shared(
                    <__spec_p::LeafVia<
                        __spec_p::Src<'t', 'y', 'p', 'e'>,
                    > as __spec_p::LeafConvert<
                        <Misplaced·type as __spec_p::SourceServedBy<R>>::Space,
                        <Batch<Labels<3>> as __spec_p::LeafField>::Space,
                    >>::serve(
                        <<Misplaced·type as __spec_p::SourceServedBy<
                            R,
                        >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                        __spec_cache,
                    ),
                ),
            }
        }
    }
    impl<R> __spec_p::GatherFrom<R> for Misplaced
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        for<'__spec_x> (
            Batch<Vector<4>>,
            Batch<Vector<2>>,
        ): __spec_p::GatherField<R, __spec_p::Src<'v'>>,
        for<'__spec_x> Labelled: __spec_p::GatherFrom<R>,
        Misplaced·tokens: __spec_p::SourceServedBy<R>,
        <Misplaced·tokens as __spec_p::SourceServedBy<
            R,
        >>::Space: __spec_p::FormatAs<
            <Batch<IndexSeq<50>> as __spec_p::LeafField>::Space,
        >,
        for<'__spec_x> Batch<
            IndexSeq<50>,
        >: __spec_p::GatherInto<<Batch<IndexSeq<50>> as __spec_p::LeafField>::Space>,
        Misplaced·type: __spec_p::SourceServedBy<R>,
        <Misplaced·type as __spec_p::SourceServedBy<
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
            <(
                Batch<Vector<4>>,
                Batch<Vector<2>>,
            ) as __spec_p::GatherField<
                R,
                __spec_p::Src<'v'>,
            >>::gather_field(
                &mut __spec_out.views,
                __spec_record,
                __spec_rows,
                __spec_p::core::clone::Clone::clone(&__spec_zero),
                __spec_draws,
            )?;
            <Labelled as __spec_p::GatherFrom<
                R,
            >>::gather_from(
                &mut __spec_out.inner,
                __spec_record,
                __spec_rows,
                __spec_p::core::clone::Clone::clone(&__spec_zero),
                __spec_draws,
            )?;
            let __spec_collate_tokens = &__spec_p::Collate::<
                <<Batch<
                    IndexSeq<50>,
                > as __spec_p::LeafField>::Space as __spec_p::Space>::Elem,
            > {
                pad: 50,
                steps: __spec_p::core::option::Option::None,
                truncate: false,
            };
            <__spec_p::LeafVia<
                __spec_p::Src<'t'>,
            > as __spec_p::LeafConvert<
                <Misplaced·tokens as __spec_p::SourceServedBy<R>>::Space,
                <Batch<IndexSeq<50>> as __spec_p::LeafField>::Space,
            >>::gather(
                <<Misplaced·tokens as __spec_p::SourceServedBy<
                    R,
                >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                __spec_rows,
                __spec_p::core::clone::Clone::clone(&__spec_zero),
                &mut __spec_out.tokens,
                __spec_collate_tokens,
            )?;
            let __spec_collate_type = &__spec_p::Collate::DEFAULT;
            <__spec_p::LeafVia<
                __spec_p::Src<'t', 'y', 'p', 'e'>,
            > as __spec_p::LeafConvert<
                <Misplaced·type as __spec_p::SourceServedBy<R>>::Space,
                <Batch<Labels<3>> as __spec_p::LeafField>::Space,
            >>::gather(
                <<Misplaced·type as __spec_p::SourceServedBy<
                    R,
                >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                __spec_rows,
                __spec_p::core::clone::Clone::clone(&__spec_zero),
                &mut __spec_out.r#type,
                __spec_collate_type,
            )?;
            __spec_p::core::result::Result::Ok(())
        }
        fn check_fits(
            __spec_record: &R,
        ) -> __spec_p::core::result::Result<(), __spec_p::DataError> {
            let _ = &__spec_record;
            <(
                Batch<Vector<4>>,
                Batch<Vector<2>>,
            ) as __spec_p::GatherField<
                R,
                __spec_p::Src<'v'>,
            >>::check_field(__spec_record)?;
            <Labelled as __spec_p::GatherFrom<R>>::check_fits(__spec_record)?;
            let __spec_collate_tokens = &__spec_p::Collate::<
                <<Batch<
                    IndexSeq<50>,
                > as __spec_p::LeafField>::Space as __spec_p::Space>::Elem,
            > {
                pad: 50,
                steps: __spec_p::core::option::Option::None,
                truncate: false,
            };
            <__spec_p::LeafVia<
                __spec_p::Src<'t'>,
            > as __spec_p::LeafConvert<
                <Misplaced·tokens as __spec_p::SourceServedBy<R>>::Space,
                <Batch<IndexSeq<50>> as __spec_p::LeafField>::Space,
            >>::fits(
                <<Misplaced·tokens as __spec_p::SourceServedBy<
                    R,
                >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                __spec_collate_tokens,
            )?;
            let __spec_collate_type = &__spec_p::Collate::DEFAULT;
            <__spec_p::LeafVia<
                __spec_p::Src<'t', 'y', 'p', 'e'>,
            > as __spec_p::LeafConvert<
                <Misplaced·type as __spec_p::SourceServedBy<R>>::Space,
                <Batch<Labels<3>> as __spec_p::LeafField>::Space,
            >>::fits(
                <<Misplaced·type as __spec_p::SourceServedBy<
                    R,
                >>::Via as __spec_p::SourceOf<R>>::view(__spec_record),
                __spec_collate_type,
            )?;
            __spec_p::core::result::Result::Ok(())
        }
    }
    impl<R> __spec_p::ProvidedBy<R> for Misplaced
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        Self: __spec_p::GatherFrom<R>,
        for<'__spec_x> <Self as __spec_p::Node<()>>::Flat: __spec_p::AllocFlat,
    {}
    impl __spec_p::GatherSame for Misplaced
    where
        for<'__spec_x> (Batch<Vector<4>>, Batch<Vector<2>>): __spec_p::GatherSame,
        for<'__spec_x> Labelled: __spec_p::GatherSame,
        for<'__spec_x> Batch<IndexSeq<50>>: __spec_p::GatherSame,
        for<'__spec_x> Batch<Labels<3>>: __spec_p::GatherSame,
    {
        fn gather_same(
            __spec_out: &mut Self,
            __spec_from: &Self,
            __spec_rows: &[usize],
            __spec_at: usize,
        ) {
            let _ = (&__spec_out, &__spec_from, &__spec_rows, &__spec_at);
            <(
                Batch<Vector<4>>,
                Batch<Vector<2>>,
            ) as __spec_p::GatherSame>::gather_same(
                &mut __spec_out.views,
                &__spec_from.views,
                __spec_rows,
                __spec_at,
            );
            <Labelled as __spec_p::GatherSame>::gather_same(
                &mut __spec_out.inner,
                &__spec_from.inner,
                __spec_rows,
                __spec_at,
            );
            <Batch<
                IndexSeq<50>,
            > as __spec_p::GatherSame>::gather_same(
                &mut __spec_out.tokens,
                &__spec_from.tokens,
                __spec_rows,
                __spec_at,
            );
            <Batch<
                Labels<3>,
            > as __spec_p::GatherSame>::gather_same(
                &mut __spec_out.r#type,
                &__spec_from.r#type,
                __spec_rows,
                __spec_at,
            );
        }
    }
    impl __spec_p::LoadRecord for Misplaced
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        for<'__spec_x> (Batch<Vector<4>>, Batch<Vector<2>>): __spec_p::LoadField,
        for<'__spec_x> Labelled: __spec_p::LoadRecord,
        for<'__spec_x> Batch<IndexSeq<50>>: __spec_p::LoadField,
        for<'__spec_x> Batch<Labels<3>>: __spec_p::LoadField,
    {
        fn load_record<__SpecL: __spec_p::LeafSource>(
            __spec_source: &mut __SpecL,
            __spec_leaves: &mut __spec_p::core::slice::Iter<'_, __spec_p::Described>,
        ) -> __spec_p::core::result::Result<Self, __SpecL::Error> {
            let _ = (&__spec_source, &__spec_leaves);
            __spec_p::core::result::Result::Ok(Self {
                views: <(
                    Batch<Vector<4>>,
                    Batch<Vector<2>>,
                ) as __spec_p::LoadField>::load_field(__spec_source, __spec_leaves)?,
                inner: <Labelled as __spec_p::LoadRecord>::load_record(
                    __spec_source,
                    __spec_leaves,
                )?,
                tokens: <Batch<
                    IndexSeq<50>,
                > as __spec_p::LoadField>::load_field(__spec_source, __spec_leaves)?,
                r#type: <Batch<
                    Labels<3>,
                > as __spec_p::LoadField>::load_field(__spec_source, __spec_leaves)?,
            })
        }
    }
    impl<R, __SpecK> __spec_p::ReadField<R, __SpecK> for Misplaced
    where
        for<'__spec_x> Self: __spec_p::Reads<R>,
    {}
    impl<R, __SpecK> __spec_p::ServeField<R, __SpecK> for Misplaced
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
    impl<R, __SpecK> __spec_p::GatherField<R, __SpecK> for Misplaced
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
    impl<M: __spec_p::LeafMapper> __spec_p::MapSpec<M> for Misplaced
    where
        (Batch<Vector<4>>, Batch<Vector<2>>): __spec_p::MapSpec<M>,
        Labelled: __spec_p::MapSpec<M>,
        Batch<IndexSeq<50>>: __spec_p::MapSpec<M>,
        Batch<Labels<3>>: __spec_p::MapSpec<M>,
    {
        type Out = MisplacedMapped<
            <(Batch<Vector<4>>, Batch<Vector<2>>) as __spec_p::MapSpec<M>>::Out,
            <Labelled as __spec_p::MapSpec<M>>::Out,
            <Batch<IndexSeq<50>> as __spec_p::MapSpec<M>>::Out,
            <Batch<Labels<3>> as __spec_p::MapSpec<M>>::Out,
        >;
        fn map_spec(
            self,
            __spec_mapper: &mut M,
        ) -> __spec_p::core::result::Result<
            Self::Out,
            <M as __spec_p::LeafMapper>::Error,
        > {
            let _ = &__spec_mapper;
            __spec_p::core::result::Result::Ok(MisplacedMapped {
                views: <(
                    Batch<Vector<4>>,
                    Batch<Vector<2>>,
                ) as __spec_p::MapSpec<M>>::map_spec(self.views, __spec_mapper)?,
                inner: <Labelled as __spec_p::MapSpec<
                    M,
                >>::map_spec(self.inner, __spec_mapper)?,
                tokens: <Batch<
                    IndexSeq<50>,
                > as __spec_p::MapSpec<M>>::map_spec(self.tokens, __spec_mapper)?,
                r#type: <Batch<
                    Labels<3>,
                > as __spec_p::MapSpec<M>>::map_spec(self.r#type, __spec_mapper)?,
            })
        }
    }
    #[automatically_derived]
    #[diagnostic::do_not_recommend]
    impl __spec_p::NodeMut for Misplaced
    where
        for<'__spec_x> (Batch<Vector<4>>, Batch<Vector<2>>): __spec_p::NodeMut,
        for<'__spec_x> Labelled: __spec_p::NodeMut,
        for<'__spec_x> Batch<IndexSeq<50>>: __spec_p::NodeMut,
        for<'__spec_x> Batch<Labels<3>>: __spec_p::NodeMut,
    {
        type ViewsMut<'__spec_a> = MisplacedMapped<
            <(
                Batch<Vector<4>>,
                Batch<Vector<2>>,
            ) as __spec_p::NodeMut>::ViewsMut<'__spec_a>,
            <Labelled as __spec_p::NodeMut>::ViewsMut<'__spec_a>,
            <Batch<IndexSeq<50>> as __spec_p::NodeMut>::ViewsMut<'__spec_a>,
            <Batch<Labels<3>> as __spec_p::NodeMut>::ViewsMut<'__spec_a>,
        >
        where
            Self: '__spec_a;
        fn node_views_mut(
            &mut self,
            __spec_rows: __spec_p::core::ops::Range<usize>,
        ) -> Self::ViewsMut<'_> {
            let _ = &__spec_rows;
            MisplacedMapped {
                views: <(
                    Batch<Vector<4>>,
                    Batch<Vector<2>>,
                ) as __spec_p::NodeMut>::node_views_mut(
                    &mut self.views,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                inner: <Labelled as __spec_p::NodeMut>::node_views_mut(
                    &mut self.inner,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                tokens: <Batch<
                    IndexSeq<50>,
                > as __spec_p::NodeMut>::node_views_mut(
                    &mut self.tokens,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
                r#type: <Batch<
                    Labels<3>,
                > as __spec_p::NodeMut>::node_views_mut(
                    &mut self.r#type,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
            }
        }
    }
};
///The fields of [`Misplaced`], each made into something else: one type parameter per field, in field order. Generated by `#[derive(DataSpec)]`; filled with a framework's tensors by `MapSpec::map_spec` (see the `tensors` module of batchspec), with mutable views of some rows by `Dataset::rows_mut` and `Dataset::sample_mut`, and with views of a projection by `Projection::rows`.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
#[allow(dead_code)]
struct MisplacedMapped<Views, Inner, Tokens, Type> {
    ///The field `views` of [`Misplaced`], made into something else (a tensor, a view).
    views: Views,
    ///The field `inner` of [`Misplaced`], made into something else (a tensor, a view).
    inner: Inner,
    ///The field `tokens` of [`Misplaced`], made into something else (a tensor, a view).
    tokens: Tokens,
    ///The field `r#type` of [`Misplaced`], made into something else (a tensor, a view).
    r#type: Type,
}
#[doc(hidden)]
#[allow(dead_code, unreachable_pub, non_camel_case_types)]
enum Misplaced·views {}
#[doc(hidden)]
#[allow(dead_code, unreachable_pub, non_camel_case_types)]
enum Misplaced·inner {}
#[doc(hidden)]
#[allow(dead_code, unreachable_pub, non_camel_case_types)]
enum Misplaced·tokens {}
#[doc(hidden)]
#[allow(dead_code, unreachable_pub, non_camel_case_types)]
enum Misplaced·type {}
