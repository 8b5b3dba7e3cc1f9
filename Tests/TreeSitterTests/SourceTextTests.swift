import TreeSitter
import XCTest

final class SourceTextPositionTests: XCTestCase {
    func testASCIIOffsetsMapToOneBasedLinesAndColumns() {
        let source = SourceText("let a = 1\nlet bb = 2\n")
        XCTAssertEqual(source.position(ofByte: 0), TextPosition(line: 1, column: 1))
        XCTAssertEqual(source.position(ofByte: 4), TextPosition(line: 1, column: 5))
        // Offset 9 is the newline itself: it still belongs to line 1, one past the last character.
        XCTAssertEqual(source.position(ofByte: 9), TextPosition(line: 1, column: 10))
        XCTAssertEqual(source.position(ofByte: 10), TextPosition(line: 2, column: 1))
        XCTAssertEqual(source.position(ofByte: 14), TextPosition(line: 2, column: 5))
    }

    func testColumnsCountCodePointsNotBytesAfterAccentAndEmoji() throws {
        // "é" is 2 bytes and 1 code point; the stadium emoji with its variation selector is 7 bytes and 2 code points.
        let text = "let s = \"\u{E9}\u{1F3DF}\u{FE0F}\"; ProgressView()"
        let source = SourceText(text)
        let target = try XCTUnwrap(byteOffset(of: "ProgressView", in: text))
        XCTAssertEqual(target, 9 + 2 + 7 + 3, "the fixture must put the target 21 bytes in")
        // 9 + 1 + 2 + 3 = 15 code points precede it.
        XCTAssertEqual(source.position(ofByte: target), TextPosition(line: 1, column: 16))
    }

    func testOffsetsInsideAMultiByteCharacterResolveToThatCharacter() {
        let source = SourceText("let s = \"\u{E9}\u{1F3DF}\u{FE0F}\"")
        let accent = 9
        let stadium = accent + 2
        let selector = stadium + 4
        XCTAssertEqual(source.position(ofByte: accent).column, 10)
        XCTAssertEqual(source.position(ofByte: accent + 1).column, 10)
        XCTAssertEqual(source.position(ofByte: stadium).column, 11)
        XCTAssertEqual(source.position(ofByte: stadium + 3).column, 11)
        // The variation selector is a code point of its own, so it has its own column.
        XCTAssertEqual(source.position(ofByte: selector).column, 12)
        XCTAssertEqual(source.position(ofByte: selector + 2).column, 12)
        XCTAssertEqual(source.position(ofByte: selector + 3).column, 13)
    }

    func testTabCountsAsOneColumn() {
        let source = SourceText("\t\tProgressView()")
        XCTAssertEqual(source.position(ofByte: 1), TextPosition(line: 1, column: 2))
        XCTAssertEqual(source.position(ofByte: 2), TextPosition(line: 1, column: 3))
    }

    func testCRLFLineEndingsStartTheNextLineAfterTheLineFeed() {
        let source = SourceText("ab\r\ncd\r\nef")
        XCTAssertEqual(source.lineCount, 3)
        XCTAssertEqual(source.position(ofByte: 2), TextPosition(line: 1, column: 3), "the carriage return ends line 1")
        XCTAssertEqual(source.position(ofByte: 4), TextPosition(line: 2, column: 1))
        XCTAssertEqual(source.position(ofByte: 5), TextPosition(line: 2, column: 2))
        XCTAssertEqual(source.position(ofByte: 8), TextPosition(line: 3, column: 1))
    }

    func testOffsetAtEndOfFileIsOnePastTheLastCharacter() {
        XCTAssertEqual(SourceText("ab\ncd").position(ofByte: 5), TextPosition(line: 2, column: 3))
        // A trailing newline opens an empty last line.
        XCTAssertEqual(SourceText("ab\n").position(ofByte: 3), TextPosition(line: 2, column: 1))
    }

    func testOffsetsOutsideTheTextAreClamped() {
        let source = SourceText("ab\ncé")
        XCTAssertEqual(source.position(ofByte: 1_000), TextPosition(line: 2, column: 3))
        XCTAssertEqual(source.position(ofByte: -5), TextPosition(line: 1, column: 1))
    }

    func testEmptyTextHasOneEmptyLine() {
        let source = SourceText("")
        XCTAssertEqual(source.lineCount, 1)
        XCTAssertEqual(source.position(ofByte: 0), TextPosition(line: 1, column: 1))
        XCTAssertEqual(source.position(ofByte: 10), TextPosition(line: 1, column: 1))
        XCTAssertEqual(source.lineText(1), "")
        XCTAssertEqual(source.text(0..<10), "")
    }

    func testByteOrderMarkTakesNoColumn() {
        let source = SourceText("\u{FEFF}let v = 1\nlet w = 2")
        XCTAssertTrue(source.hasByteOrderMark)
        XCTAssertEqual(source.position(ofByte: 0), TextPosition(line: 1, column: 1))
        XCTAssertEqual(source.position(ofByte: 3), TextPosition(line: 1, column: 1), "the first character after the mark")
        XCTAssertEqual(source.position(ofByte: 7), TextPosition(line: 1, column: 5))
        // Only the first line holds the mark.
        XCTAssertEqual(source.position(ofByte: 17), TextPosition(line: 2, column: 5))
        XCTAssertEqual(source.lineText(1), "let v = 1")
        XCTAssertEqual(source.lineText(2), "let w = 2")
        XCTAssertFalse(SourceText("let v = 1").hasByteOrderMark)
    }

    func testPositionsOrderByLineThenColumnAndPrintAsLineColon() {
        XCTAssertLessThan(TextPosition(line: 1, column: 40), TextPosition(line: 2, column: 1))
        XCTAssertLessThan(TextPosition(line: 2, column: 1), TextPosition(line: 2, column: 2))
        XCTAssertEqual(TextPosition(line: 3, column: 7).description, "3:7")
    }
}

final class SourceTextLineTests: XCTestCase {
    func testFirstAndLastLinesWithoutTerminators() {
        let source = SourceText("first line\nmiddle\nlast")
        XCTAssertEqual(source.lineText(1), "first line")
        XCTAssertEqual(source.lineText(2), "middle")
        XCTAssertEqual(source.lineText(3), "last")
        XCTAssertEqual(Array(source.lineBytes(1)), Array("first line".utf8))
        XCTAssertEqual(Array(source.lineBytes(3)), Array("last".utf8))
    }

    func testLinesOutOfRangeAreEmpty() {
        let source = SourceText("one\ntwo\n")
        XCTAssertEqual(source.lineCount, 3)
        XCTAssertEqual(source.lineText(0), "")
        XCTAssertEqual(source.lineText(-1), "")
        XCTAssertEqual(source.lineText(4), "")
        XCTAssertTrue(source.lineBytes(0).isEmpty)
        XCTAssertTrue(source.lineBytes(99).isEmpty)
    }

    func testCRLFLinesDropTheCarriageReturn() {
        let source = SourceText("ab\r\ncd\r\n\r\nef")
        XCTAssertEqual(source.lineText(1), "ab")
        XCTAssertEqual(source.lineText(2), "cd")
        XCTAssertEqual(source.lineText(3), "")
        XCTAssertEqual(source.lineText(4), "ef")
        XCTAssertEqual(Array(source.lineBytes(2)), Array("cd".utf8))
    }

    func testLineTextKeepsNonASCIICharacters() {
        let source = SourceText("x\nlet s = \"Caf\u{E9} \u{1F3DF}\u{FE0F}\"\n")
        XCTAssertEqual(source.lineText(2), "let s = \"Caf\u{E9} \u{1F3DF}\u{FE0F}\"")
    }

    func testTextOfARangeClampsToTheBytes() {
        let source = SourceText("let v = ProgressView()")
        XCTAssertEqual(source.text(8..<20), "ProgressView")
        XCTAssertEqual(source.text(20..<500), "()")
    }
}

final class LandmarksTests: XCTestCase {
    func testARangeHoldsALandmarkOnlyWhereAWordStartsInsideIt() {
        let source = SourceText("let a = Text(tip)\nlet b = 1\nTimer.sleep()")
        let wordOffsets = WordOffsets(source, words: [Array("Text".utf8), Array("sleep".utf8)])
        let text = 8, sleep = source.bytes.count - 7
        XCTAssertTrue(wordOffsets.anyStart(in: 0..<source.bytes.count))
        XCTAssertTrue(wordOffsets.anyStart(in: text..<text + 1), "the word's first byte is inside")
        XCTAssertFalse(wordOffsets.anyStart(in: text + 1..<sleep), "a range that cuts off the word's start holds none")
        XCTAssertFalse(wordOffsets.anyStart(in: 0..<text), "the upper bound is excluded")
        XCTAssertTrue(wordOffsets.anyStart(in: sleep..<sleep + 5))
        XCTAssertFalse(wordOffsets.anyStart(in: sleep + 5..<source.bytes.count))
        XCTAssertFalse(wordOffsets.anyStart(in: text..<text), "an empty range holds nothing")
    }

    func testOverlappingAndRepeatedOccurrencesAllCount() {
        let source = SourceText("aaaa")
        let wordOffsets = WordOffsets(source, words: [Array("aa".utf8), Array("aa".utf8)])
        for start in 0..<3 { XCTAssertTrue(wordOffsets.anyStart(in: start..<start + 1), "offset \(start)") }
        XCTAssertFalse(wordOffsets.anyStart(in: 3..<4), "too short for the word")
    }

    func testNoWordsOrNoOccurrencesMarkNothing() {
        let source = SourceText("struct Screen {}")
        XCTAssertFalse(WordOffsets(source, words: []).anyStart(in: 0..<source.bytes.count))
        XCTAssertFalse(WordOffsets(source, words: [Array("ProgressView".utf8)]).anyStart(in: 0..<source.bytes.count))
        XCTAssertTrue(SourceText("x").contains([]), "the empty word is in every text")
    }
}
