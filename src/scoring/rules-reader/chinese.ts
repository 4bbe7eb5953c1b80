// Reads one Chinese clause of a user's reply. wink-nlp has no Chinese model and no npm package
// we measured reads Chinese feedback offline, so this part is cue lists: praise and complaint
// words, and the ways Chinese states an instruction (不要/别, 以后/下次, 用…回答, 改成, 只要,
// 控制在…以内, …一点). Emoji and Latin words in the clause are still scored by wink.

import { analyse } from './nlp.ts';
import type { ClauseReading } from './types.ts';

export const POSITIVE_ZH =
  /(终于(?:能|可以|好了|跑通|成功)|[没不]报错了|谢谢|谢啦|谢了|多谢|感谢|辛苦|太好了|太棒|好棒|很棒|真棒|很好|真好|挺好|不错|完美|牛|厉害|可以了|就这样|明白了|清楚|跑通|没问题|正是|就是这个|好的|赞|好用|有用|漂亮|满意|没毛病|靠谱|稳了|绝了|666|解决了|搞定|学到了|多亏|幸亏|可以可以|可以的|对上了|哈哈|成功了|管用|奏效|地道|没提(任何)?意见|全过了|都过了|全绿|太(妙|强|酷|爽|香|绝|神|美|帅|贴心|给力|及时|实用|方便|清楚|详细)了?)/;
export const NEGATIVE_ZH =
  /(太(?!好|棒|有用|厉害|感谢|谢谢|赞|妙|强|酷|爽|香|绝|神|牛|美|帅|可爱|贴心|给力|及时|实用|方便|清楚|详细|快|感动|开心)[\u4e00-\u9fff]{1,3}了|不喜欢|不舒服|重新|再试|再来|重来|不对|错了|算错|出错|报错|不行|没用|不是这个意思|不是我要的|我(?:说|要)的是(?!这个|这样)|崩|坏了|搞坏|看不懂|不懂|太长|太啰嗦|啰嗦|乱七八糟|很乱|根本没|没回答|还是|又|失败|糟糕|垃圾|离谱|不好|差劲|太多|服了|无语|答非所问|跑题|离题|文不对题|算了|我自己来|自己来吧|什么鬼|搞什么|有毛病|扯|别闹|没救|呵呵|明明|数成|数错|算成|[，,]\s*不是[\d一二三四五六七八九十两]|(跟|和)[^，。]{0,8}一模一样|关门了|(才|只)(给了|写了|列了|有)\s*[\d一二三四五六七八九十两])/;
// "不错" (not bad) is praise and "没问题" (no problem) is fine: removed before looking for complaints.
const PRAISE_WITH_NEGATION = /(不错|没问题|不客气|没毛病|失败重试|失败时|失败后|失败的话|报错处理|错误处理|[没不]报错了)/g;
export const INSTRUCTION_ZH =
  /(不要|不用|(?<![特区分告级类])别|以后|下次|今后|记得|用.{0,8}(回答|回复|写|表示)|(全部|都|只|改|请)用|请|应该|(能不能|可不可以|能否)(都)?(用|改|换|写|加|附|去掉|删)|只要|只用|只写|改成|改为|换成|换(一|个)|写成|控制在|少于|不超过|少一点|短一点|简短|一点|^(加上?|去掉|删掉|删除|写成)|(结尾|最后|开头|末尾)(加|放|写|附))/;
const QUESTION = /([?？]\s*$|吗|怎么|什么|多少|哪|为什么|如何|是否)/;
// "接下来能不能…": after "next", a request is more work, not a change.
const NEW_TASK =
  /^(那|那么|然后|顺便|接下来|另外)?(帮我|给我|请帮|再帮|写一|翻译)|^(接下来|下一步|然后)[，,]?(能不能|可以|可不可以|能否|再|请)/;

/** Whether a text contains CJK characters (then this reader, not the English one, reads it). */
export function hasCjk(text: string): boolean {
  return /[\u3400-\u9fff]/.test(text);
}

/** Reads one Chinese clause. */
export function readChineseClause(text: string): ClauseReading {
  const withoutPraise = text.replace(PRAISE_WITH_NEGATION, '');
  const negative = NEGATIVE_ZH.exec(withoutPraise);
  const positive = POSITIVE_ZH.exec(text);
  const latin = text.replace(/[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]/g, ' ').trim();
  const latinPolarity = latin === '' ? 0 : analyse(latin).sentiment;
  const newTask = NEW_TASK.test(text) && !/(改|换|短|少)/.test(text);
  const instruction = !newTask && INSTRUCTION_ZH.exec(text) !== null ? `zh:"${INSTRUCTION_ZH.exec(text)![0]}"` : null;
  const question = QUESTION.test(text) && negative === null;
  let polarity = latinPolarity + (positive !== null ? 0.6 : 0);
  if (negative !== null && instruction === null) polarity -= 0.6;
  return {
    text,
    polarity: instruction !== null ? 0 : polarity,
    complaint: negative !== null && instruction === null ? `zh:"${negative[0]}"` : null,
    instruction,
    newTask,
    question,
  };
}
