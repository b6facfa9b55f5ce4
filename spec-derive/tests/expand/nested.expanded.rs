// The expansion of tests/expand/nested.rs; written by `BATCHSPEC_BLESS=1 cargo test`.
// tokens: 6ece256b3d77c40a
// spans: f169478414b22eb1
#[doc(hidden)]
#[allow(non_camel_case_types, unused_qualifications, clippy::all)]
const _: () = {
    use ::batchspec::__private as __spec_p;
    #[allow(dead_code)]
    fn __spec_fields()
    where
        (Batch<Vector<4>>, Batch<Vector<2>>): __spec_p::SpecField,
        Labelled: __spec_p::SpecField,
    {}
    #[automatically_derived]
    #[diagnostic::do_not_recommend]
    impl<__SpecSrc> __spec_p::Node<__SpecSrc> for Outer
    where
        for<'__spec_w> (
            Batch<Vector<4>>,
            Batch<Vector<2>>,
        ): __spec_p::Node<__spec_p::Src<'v'>>,
        for<'__spec_w> Labelled: __spec_p::Node<__spec_p::Src<'i', 'n', 'n', 'e', 'r'>>,
    {
        type Spaces = (
            <(
                Batch<Vector<4>>,
                Batch<Vector<2>>,
            ) as __spec_p::Node<__spec_p::Src<'v'>>>::Spaces,
            <Labelled as __spec_p::Node<__spec_p::Src<'i', 'n', 'n', 'e', 'r'>>>::Spaces,
        );
        type Sources = (
            <(
                Batch<Vector<4>>,
                Batch<Vector<2>>,
            ) as __spec_p::Node<__spec_p::Src<'v'>>>::Sources,
            <Labelled as __spec_p::Node<__spec_p::Src<'i', 'n', 'n', 'e', 'r'>>>::Sources,
        );
        type Leaves = __spec_p::LeafPair<
            <(
                Batch<Vector<4>>,
                Batch<Vector<2>>,
            ) as __spec_p::Node<__spec_p::Src<'v'>>>::Leaves,
            <Labelled as __spec_p::Node<__spec_p::Src<'i', 'n', 'n', 'e', 'r'>>>::Leaves,
        >;
        type Flat = __spec_p::Pair<
            <(
                Batch<Vector<4>>,
                Batch<Vector<2>>,
            ) as __spec_p::Node<__spec_p::Src<'v'>>>::Flat,
            <Labelled as __spec_p::Node<__spec_p::Src<'i', 'n', 'n', 'e', 'r'>>>::Flat,
        >;
        type FlatRef<'__spec_a> = __spec_p::Pair<
            <(
                Batch<Vector<4>>,
                Batch<Vector<2>>,
            ) as __spec_p::Node<__spec_p::Src<'v'>>>::FlatRef<'__spec_a>,
            <Labelled as __spec_p::Node<
                __spec_p::Src<'i', 'n', 'n', 'e', 'r'>,
            >>::FlatRef<'__spec_a>,
        >
        where
            Self: '__spec_a;
        type FlatMut<'__spec_a> = __spec_p::Pair<
            <(
                Batch<Vector<4>>,
                Batch<Vector<2>>,
            ) as __spec_p::Node<__spec_p::Src<'v'>>>::FlatMut<'__spec_a>,
            <Labelled as __spec_p::Node<
                __spec_p::Src<'i', 'n', 'n', 'e', 'r'>,
            >>::FlatMut<'__spec_a>,
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
        );
        type Views<'__spec_a> = OuterMapped<
            <(
                Batch<Vector<4>>,
                Batch<Vector<2>>,
            ) as __spec_p::Node<__spec_p::Src<'v'>>>::Views<'__spec_a>,
            <Labelled as __spec_p::Node<
                __spec_p::Src<'i', 'n', 'n', 'e', 'r'>,
            >>::Views<'__spec_a>,
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
            >>::LEAVES;
        const TOTAL: __spec_p::core::option::Option<usize> = __spec_p::__add_features(
            <(
                Batch<Vector<4>>,
                Batch<Vector<2>>,
            ) as __spec_p::Node<__spec_p::Src<'v'>>>::TOTAL,
            __spec_p::__add_features(
                <Labelled as __spec_p::Node<
                    __spec_p::Src<'i', 'n', 'n', 'e', 'r'>,
                >>::TOTAL,
                __spec_p::core::option::Option::Some(0usize),
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
            __spec_p::core::result::Result::Ok(())
        }
        #[inline(always)]
        fn node_flatten(self) -> Self::Flat {
            __spec_p::Pair {
                first: <(
                    Batch<Vector<4>>,
                    Batch<Vector<2>>,
                ) as __spec_p::Node<__spec_p::Src<'v'>>>::node_flatten(self.views),
                second: <Labelled as __spec_p::Node<
                    __spec_p::Src<'i', 'n', 'n', 'e', 'r'>,
                >>::node_flatten(self.inner),
            }
        }
        #[inline(always)]
        fn node_nest(__spec_flat: Self::Flat) -> Self {
            let __spec_p::Pair { first: __spec_part0, second: __spec_part1 } = __spec_flat;
            Self {
                views: <(
                    Batch<Vector<4>>,
                    Batch<Vector<2>>,
                ) as __spec_p::Node<__spec_p::Src<'v'>>>::node_nest(__spec_part0),
                inner: <Labelled as __spec_p::Node<
                    __spec_p::Src<'i', 'n', 'n', 'e', 'r'>,
                >>::node_nest(__spec_part1),
            }
        }
        #[inline(always)]
        fn node_flatten_ref(&self) -> Self::FlatRef<'_> {
            __spec_p::Pair {
                first: <(
                    Batch<Vector<4>>,
                    Batch<Vector<2>>,
                ) as __spec_p::Node<__spec_p::Src<'v'>>>::node_flatten_ref(&self.views),
                second: <Labelled as __spec_p::Node<
                    __spec_p::Src<'i', 'n', 'n', 'e', 'r'>,
                >>::node_flatten_ref(&self.inner),
            }
        }
        #[inline(always)]
        fn node_flatten_mut(&mut self) -> Self::FlatMut<'_> {
            __spec_p::Pair {
                first: <(
                    Batch<Vector<4>>,
                    Batch<Vector<2>>,
                ) as __spec_p::Node<
                    __spec_p::Src<'v'>,
                >>::node_flatten_mut(&mut self.views),
                second: <Labelled as __spec_p::Node<
                    __spec_p::Src<'i', 'n', 'n', 'e', 'r'>,
                >>::node_flatten_mut(&mut self.inner),
            }
        }
        fn node_views(
            &self,
            __spec_rows: __spec_p::core::ops::Range<usize>,
        ) -> Self::Views<'_> {
            let _ = &__spec_rows;
            OuterMapped {
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
        }
    }
    #[automatically_derived]
    impl __spec_p::DataSpec for Outer
    where
        for<'__spec_w> (
            Batch<Vector<4>>,
            Batch<Vector<2>>,
        ): __spec_p::Node<__spec_p::Src<'v'>>,
        for<'__spec_w> Labelled: __spec_p::Node<__spec_p::Src<'i', 'n', 'n', 'e', 'r'>>,
    {}
    impl<R> __spec_p::ProjectFrom<R> for Outer
    where
        Outer·views: __spec_p::LentByProjection<R>,
        for<'__spec_x> Labelled: __spec_p::ProjectFrom<R>,
    {
        type Views<'__spec_a> = OuterMapped<
            <Outer·views as __spec_p::LentByProjection<R>>::View,
            <Labelled as __spec_p::ProjectFrom<R>>::Views<'__spec_a>,
        >
        where
            R: '__spec_a;
        fn project_rows(
            __spec_record: &R,
            __spec_rows: __spec_p::core::ops::Range<usize>,
        ) -> Self::Views<'_> {
            let _ = (&__spec_record, &__spec_rows);
            OuterMapped {
                views: <Outer·views as __spec_p::LentByProjection<R>>::lend(),
                inner: <Labelled as __spec_p::ProjectFrom<
                    R,
                >>::project_rows(
                    __spec_record,
                    __spec_p::core::clone::Clone::clone(&__spec_rows),
                ),
            }
        }
    }
    impl<R> __spec_p::Reads<R> for Outer
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        for<'__spec_x> (
            Batch<Vector<4>>,
            Batch<Vector<2>>,
        ): __spec_p::ReadField<R, __spec_p::Src<'v'>>,
        for<'__spec_x> Labelled: __spec_p::Reads<R>,
    {}
    impl<R> __spec_p::ServeFrom<R> for Outer
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        for<'__spec_x> (
            Batch<Vector<4>>,
            Batch<Vector<2>>,
        ): __spec_p::ServeField<R, __spec_p::Src<'v'>>,
        for<'__spec_x> Labelled: __spec_p::ServeFrom<R>,
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
            }
        }
    }
    impl<R> __spec_p::GatherFrom<R> for Outer
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        for<'__spec_x> (
            Batch<Vector<4>>,
            Batch<Vector<2>>,
        ): __spec_p::GatherField<R, __spec_p::Src<'v'>>,
        for<'__spec_x> Labelled: __spec_p::GatherFrom<R>,
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
            __spec_p::core::result::Result::Ok(())
        }
    }
    impl<R> __spec_p::ProvidedBy<R> for Outer
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        Self: __spec_p::GatherFrom<R>,
        for<'__spec_x> <Self as __spec_p::Node<()>>::Flat: __spec_p::AllocFlat,
    {}
    impl __spec_p::GatherSame for Outer
    where
        for<'__spec_x> (Batch<Vector<4>>, Batch<Vector<2>>): __spec_p::GatherSame,
        for<'__spec_x> Labelled: __spec_p::GatherSame,
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
        }
    }
    impl __spec_p::LoadRecord for Outer
    where
        for<'__spec_x> Self: __spec_p::DataSpec,
        for<'__spec_x> (Batch<Vector<4>>, Batch<Vector<2>>): __spec_p::LoadField,
        for<'__spec_x> Labelled: __spec_p::LoadRecord,
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
            })
        }
    }
    impl<R, __SpecK> __spec_p::ReadField<R, __SpecK> for Outer
    where
        for<'__spec_x> Self: __spec_p::Reads<R>,
    {}
    impl<R, __SpecK> __spec_p::ServeField<R, __SpecK> for Outer
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
    impl<R, __SpecK> __spec_p::GatherField<R, __SpecK> for Outer
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
    impl<M: __spec_p::LeafMapper> __spec_p::MapSpec<M> for Outer
    where
        (Batch<Vector<4>>, Batch<Vector<2>>): __spec_p::MapSpec<M>,
        Labelled: __spec_p::MapSpec<M>,
    {
        type Out = OuterMapped<
            <(Batch<Vector<4>>, Batch<Vector<2>>) as __spec_p::MapSpec<M>>::Out,
            <Labelled as __spec_p::MapSpec<M>>::Out,
        >;
        fn map_spec(
            self,
            __spec_mapper: &mut M,
        ) -> __spec_p::core::result::Result<
            Self::Out,
            <M as __spec_p::LeafMapper>::Error,
        > {
            let _ = &__spec_mapper;
            __spec_p::core::result::Result::Ok(OuterMapped {
                views: <(
                    Batch<Vector<4>>,
                    Batch<Vector<2>>,
                ) as __spec_p::MapSpec<M>>::map_spec(self.views, __spec_mapper)?,
                inner: <Labelled as __spec_p::MapSpec<
                    M,
                >>::map_spec(self.inner, __spec_mapper)?,
            })
        }
    }
    #[automatically_derived]
    #[diagnostic::do_not_recommend]
    impl __spec_p::NodeMut for Outer
    where
        for<'__spec_x> (Batch<Vector<4>>, Batch<Vector<2>>): __spec_p::NodeMut,
        for<'__spec_x> Labelled: __spec_p::NodeMut,
    {
        type ViewsMut<'__spec_a> = OuterMapped<
            <(
                Batch<Vector<4>>,
                Batch<Vector<2>>,
            ) as __spec_p::NodeMut>::ViewsMut<'__spec_a>,
            <Labelled as __spec_p::NodeMut>::ViewsMut<'__spec_a>,
        >
        where
            Self: '__spec_a;
        fn node_views_mut(
            &mut self,
            __spec_rows: __spec_p::core::ops::Range<usize>,
        ) -> Self::ViewsMut<'_> {
            let _ = &__spec_rows;
            OuterMapped {
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
            }
        }
    }
};
///The fields of [`Outer`], each made into something else: one type parameter per field, in field order. Generated by `#[derive(DataSpec)]`; filled with a framework's tensors by `MapSpec::map_spec` (see the `tensors` module of batchspec), with mutable views of some rows by `Dataset::rows_mut` and `Dataset::sample_mut`, and with views of a projection by `Projection::rows`.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
#[allow(dead_code)]
struct OuterMapped<Views, Inner> {
    ///The field `views` of [`Outer`], made into something else (a tensor, a view).
    views: Views,
    ///The field `inner` of [`Outer`], made into something else (a tensor, a view).
    inner: Inner,
}
#[doc(hidden)]
#[allow(dead_code, unreachable_pub, non_camel_case_types)]
enum Outer·views {}
#[doc(hidden)]
#[allow(dead_code, unreachable_pub, non_camel_case_types)]
enum Outer·inner {}
