using JsonStringify.Internals;

namespace JsonStringify.Tests;

/// <summary>The default pool of string-result chunks: which lengths it hands out and keeps, and how many.</summary>
public class ResultChunkPoolTests
{
    private const int Min = StringSink.MinChunkLength;
    private const int Max = StringSink.MaxChunkLength;

    [Fact]
    public void ChunksArePowersOfTwoFromTheShortestToTheLongestChunk()
    {
        var pool = new ResultChunkPool();
        Assert.Empty(pool.Rent(0));
        Assert.Equal(Min, pool.Rent(1).Length);
        Assert.Equal(Min, pool.Rent(Min).Length);
        Assert.Equal(2 * Min, pool.Rent(Min + 1).Length);
        Assert.Equal(Max, pool.Rent((Max / 2) + 1).Length);
        Assert.Equal(Max, pool.Rent(Max).Length);

        // Longer than any chunk a string result asks for: exactly as long, and not kept.
        char[] longer = pool.Rent(Max + 1);
        Assert.Equal(Max + 1, longer.Length);
        pool.Return(longer);
        Assert.NotSame(longer, pool.Rent(Max + 1));

        Assert.Throws<ArgumentOutOfRangeException>(() => pool.Rent(-1));
        Assert.Throws<ArgumentNullException>(() => pool.Return(null!));
    }

    [Fact]
    public void AtMostEightIdleArraysOfALengthAreKept()
    {
        var pool = new ResultChunkPool();
        char[][] first = [.. Enumerable.Range(0, 10).Select(_ => pool.Rent(100_000))];
        Assert.Equal(10, first.Distinct(ReferenceEqualityComparer.Instance).Count());
        foreach (char[] array in first)
        {
            pool.Return(array);
        }

        char[][] second = [.. Enumerable.Range(0, 10).Select(_ => pool.Rent(100_000))];
        Assert.Equal(ResultChunkPool.MaxKeptPerLength, second.Count(array => first.Contains(array, ReferenceEqualityComparer.Instance)));

        // An array of a length the pool never makes is dropped, not handed out again.
        char[] odd = new char[3 * Min];
        pool.Return(odd);
        char[] rented = pool.Rent(3 * Min);
        Assert.NotSame(odd, rented);
        Assert.Equal(4 * Min, rented.Length);
    }

    [Fact]
    public void ClearArrayClearsWhatIsKept()
    {
        var pool = new ResultChunkPool();
        char[] array = pool.Rent(10);
        array.AsSpan().Fill('x');
        pool.Return(array, clearArray: true);
        char[] again = pool.Rent(10);
        Assert.Same(array, again);
        Assert.All(again, c => Assert.Equal('\0', c));
    }

    [Fact]
    public void AnArrayIsHandedToOneRenterAtATime()
    {
        var pool = new ResultChunkPool();
        Parallel.For(0, 20_000, i =>
        {
            char[] array = pool.Rent(Min);
            char mark = (char)(i % 60000);
            array.AsSpan(0, 64).Fill(mark);
            Thread.SpinWait(50);
            Assert.All(array.AsSpan(0, 64).ToArray(), c => Assert.Equal(mark, c));
            pool.Return(array);
        });
    }
}
