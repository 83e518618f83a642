using System.Buffers;

namespace JsonStringify.Tests;

/// <summary>
/// A char pool that counts what it hands out and takes back, and refuses arrays it did not hand out. New arrays are
/// filled with '#', and returned ones keep their text, so leftover chars in a chunk would show in a result.
/// </summary>
internal sealed class CountingCharPool : ArrayPool<char>
{
    private readonly HashSet<char[]> _outstanding = new(ReferenceEqualityComparer.Instance);
    private readonly Stack<char[]> _free = new();
    private long _outstandingChars;

    public int Rented { get; private set; }

    public int Returned { get; private set; }

    public int Created { get; private set; }

    public int MaxOutstanding { get; private set; }

    /// <summary>The most chars out at once (by array length).</summary>
    public long MaxOutstandingChars { get; private set; }

    /// <summary>The longest length asked for.</summary>
    public int LongestRequest { get; private set; }

    /// <summary>The length last asked for.</summary>
    public int LastRequest { get; private set; }

    public int Outstanding => _outstanding.Count;

    public override char[] Rent(int minimumLength)
    {
        Rented++;
        LongestRequest = Math.Max(LongestRequest, minimumLength);
        LastRequest = minimumLength;
        char[] array;
        if (_free.TryPeek(out char[]? kept) && kept.Length >= minimumLength)
        {
            array = _free.Pop();
        }
        else
        {
            Created++;
            array = new char[minimumLength];
            array.AsSpan().Fill('#');
        }

        _outstanding.Add(array);
        _outstandingChars += array.Length;
        MaxOutstanding = Math.Max(MaxOutstanding, _outstanding.Count);
        MaxOutstandingChars = Math.Max(MaxOutstandingChars, _outstandingChars);
        return array;
    }

    public override void Return(char[] array, bool clearArray = false)
    {
        if (!_outstanding.Remove(array))
        {
            throw new InvalidOperationException("An array this pool did not hand out, or handed back twice.");
        }

        Returned++;
        _outstandingChars -= array.Length;
        _free.Push(array);
    }
}
