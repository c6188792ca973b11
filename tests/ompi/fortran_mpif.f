! A Fortran program (include 'mpif.h') under the component: MPI_Bcast
! and MPI_Allreduce, results checked against their closed forms.
      program fortran_mpif
      implicit none
      include 'mpif.h'
      integer ierr, rank, p, i, n, bad(1), tot(1)
      parameter (n = 777)
      integer a(n), s(n)
      call MPI_Init(ierr)
      call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
      call MPI_Comm_size(MPI_COMM_WORLD, p, ierr)
      bad(1) = 0
      do i = 1, n
        a(i) = -1
        if (rank .eq. 0) a(i) = 5 * i
      end do
      call MPI_Bcast(a, n, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
      call MPI_Allreduce(a, s, n, MPI_INTEGER, MPI_SUM,
     &                   MPI_COMM_WORLD, ierr)
      do i = 1, n
        if (a(i) .ne. 5 * i) bad(1) = bad(1) + 1
        if (s(i) .ne. p * 5 * i) bad(1) = bad(1) + 1
      end do
      call MPI_Allreduce(bad, tot, 1, MPI_INTEGER, MPI_SUM,
     &                   MPI_COMM_WORLD, ierr)
      if (rank .eq. 0) print '(a,i0)', 'mpif.h: wrong values: ', tot(1)
      call MPI_Finalize(ierr)
      if (tot(1) .ne. 0) stop 1
      end
