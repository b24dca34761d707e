; math.MAX(xs): the largest element of an array of ints; an empty array is
; empty_collection. One pass over the elements, read through the runtime
; (isu_pack_array_len, isu_pack_array_get: the array is borrowed).

declare void @isu_pack_fail(i32, i32)
declare i64 @isu_pack_array_len(ptr)
declare i64 @isu_pack_array_get(ptr, i64)

define i64 @math.MAX(ptr %xs, i32 %site) {
entry:
  %n = call i64 @isu_pack_array_len(ptr %xs)
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %fail, label %first

fail:
  call void @isu_pack_fail(i32 7, i32 %site) ; empty_collection
  unreachable

first:
  %x0 = call i64 @isu_pack_array_get(ptr %xs, i64 0)
  br label %loop

loop:
  %i = phi i64 [ 1, %first ], [ %i.next, %body ]
  %best = phi i64 [ %x0, %first ], [ %best.next, %body ]
  %more = icmp slt i64 %i, %n
  br i1 %more, label %body, label %done

body:
  %x = call i64 @isu_pack_array_get(ptr %xs, i64 %i)
  %larger = icmp sgt i64 %x, %best
  %best.next = select i1 %larger, i64 %x, i64 %best
  %i.next = add i64 %i, 1
  br label %loop

done:
  ret i64 %best
}
