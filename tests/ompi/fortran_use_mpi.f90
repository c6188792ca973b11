! A Fortran program (use mpi) under the component: MPI_Bcast and
! MPI_Allreduce of several sizes, results checked against their closed
! forms; prints one line per check (run_component_test.sh compares them
! with the run without the component).
program fortran_use_mpi
  use mpi
  implicit none
  integer :: ierr, rank, p, n, i, k, bad
  integer, parameter :: sizes(3) = (/ 1, 13, 5000 /)
  integer, allocatable :: a(:), s(:)
  double precision, allocatable :: d(:), e(:)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, p, ierr)
  bad = 0
  do k = 1, size(sizes)
    n = sizes(k)
    allocate(a(n), s(n), d(n), e(n))
    do i = 1, n
      a(i) = merge(i * 3 + 1, -1, rank == p - 1)
    end do
    call MPI_Bcast(a, n, MPI_INTEGER, p - 1, MPI_COMM_WORLD, ierr)
    do i = 1, n
      if (a(i) /= i * 3 + 1) bad = bad + 1
      d(i) = dble(rank + i)
    end do
    call MPI_Allreduce(a, s, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    call MPI_Allreduce(d, e, n, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
    do i = 1, n
      if (s(i) /= p * (i * 3 + 1)) bad = bad + 1
      if (e(i) /= dble(p - 1 + i)) bad = bad + 1
    end do
    if (rank == 0) print '(a,i6,a,i3)', 'use mpi: n=', n, ' ranks=', p
    deallocate(a, s, d, e)
  end do
  call MPI_Allreduce(MPI_IN_PLACE, bad, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a,i0)', 'use mpi: wrong values: ', bad
  call MPI_Finalize(ierr)
  if (bad /= 0) stop 1
end program fortran_use_mpi
