using System.Runtime.CompilerServices;

namespace JsonStringify.Internals;

/// <summary>The work budget: the engine's constraints, checked as the output grows, and the length limit.</summary>
internal sealed partial class Walker<TOutput>
{
    // Work since the engine's constraints (timeout, cancellation, memory, statements) were last checked.
    private int _itemsSinceCheck;

    private long _lengthAtCheck;

    // The output length at which CheckWork must run next: the next constraint check, or just past MaxLength.
    private long _nextCheckLength;

    private long _lengthLimit;

    // After each value: the engine's constraints are checked once per 1,024 values or 64K chars of output, whichever
    // comes first, so a timeout or a cancellation stops even a walk that runs no user code; and output past MaxLength
    // is a RangeError as soon as it is written. One comparison covers both lengths.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void CountWork()
    {
        if (++_itemsSinceCheck >= JsonConstants.ConstraintCheckItems || _output.Length >= _nextCheckLength)
        {
            CheckWork();
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void CheckWork()
    {
        CheckLength();
        long length = _output.Length;
        if (_itemsSinceCheck >= JsonConstants.ConstraintCheckItems || length - _lengthAtCheck >= JsonConstants.ConstraintCheckChars)
        {
            _itemsSinceCheck = 0;
            _lengthAtCheck = length;
            _engine.Constraints.Check();
        }

        _nextCheckLength = NextCheckLength();
    }

    private long NextCheckLength() =>
        Math.Min(_lengthAtCheck + JsonConstants.ConstraintCheckChars, _lengthLimit == long.MaxValue ? long.MaxValue : _lengthLimit + 1);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void CheckLength()
    {
        if (_output.IsOverLimit)
        {
            Throw.InvalidStringLength(_engine, _reader);
        }
    }
}
